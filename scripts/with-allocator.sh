#!/bin/sh
# Runs a command with the runtime's memory allocator settings, each unless the environment already
# sets it: freed memory goes back to the system after a second, not page by page as it is freed
# (every hand-back is an madvise whose TLB flush interrupts the other CPUs; docs/operations.md,
# "The runtime's memory allocator"). The allocator reads them once, as the process starts.
export MIMALLOC_PURGE_DELAY="${MIMALLOC_PURGE_DELAY:-1000}"
export MIMALLOC_PURGE_HOLES="${MIMALLOC_PURGE_HOLES:-0}"
exec "$@"
