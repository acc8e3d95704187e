// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace drasim::ui {

/// Lowers the calling thread's scheduling priority (nice +10 on Linux) so that long computations
/// yield the cores to the UI thread. Threads the caller starts afterwards inherit it (on Linux
/// the nice value is per thread and copied at creation), which covers the planner's thread pool.
/// Only for threads that end with their job or that only ever run background work (the jobs'
/// pool threads): an unprivileged thread cannot raise it back. Does nothing on the application's
/// main thread, which may run a job's task when it waits for one that has not started.
void lowerCurrentThreadPriority();

/// The calling thread's nice value (tests).
int currentThreadNice();

} // namespace drasim::ui
