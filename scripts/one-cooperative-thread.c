/*
 * Swift's concurrency runs tasks on a pool with a thread per core; libdispatch sizes it from the number of CPUs
 * online, which it reads with sysconf. Preloaded (LD_PRELOAD), this says there is one, so the pool has a single
 * thread: a test that blocks a cooperative thread while it waits for another task (a synchronous database call
 * waiting for a reader another task holds, a semaphore, a process waited for on the pool) then stops the whole run
 * instead of passing by luck on two cores. It is what LIBDISPATCH_COOPERATIVE_POOL_STRICT=1 does on Apple's
 * systems, which Linux's libdispatch does not read. scripts/test builds it and runs the Swift suites once with it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

long sysconf(int name) {
    static long (*system_sysconf)(int);
    if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return 1;
    if (!system_sysconf) system_sysconf = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    return system_sysconf(name);
}
