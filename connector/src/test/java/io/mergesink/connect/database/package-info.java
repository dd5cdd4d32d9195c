/**
 * One connector over a whole database: hundreds or thousands of small tables, each its own topic,
 * through a Connect worker that runs as its own JVM with a small heap.
 */
package io.mergesink.connect.database;
