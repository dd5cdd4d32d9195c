/** A throwaway Azure Blob service (Azurite in a child process) for the quickstart and the tests. */
package io.mergesink.localazurite;
