/**
 * A throwaway PostgreSQL server started from the installed server binaries, for the quickstart
 * and the end-to-end tests with Debezium.
 */
package io.mergesink.localpg;
