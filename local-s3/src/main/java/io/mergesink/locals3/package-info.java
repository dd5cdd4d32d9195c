/** A throwaway S3 server (S3Proxy in a child process) for the quickstart, the tests and the benchmarks. */
package io.mergesink.locals3;
