// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/background_priority.h"

#include <QCoreApplication>
#include <QThread>

#if defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace drasim::ui {

namespace {
constexpr int kBackgroundNice = 10;
}

void lowerCurrentThreadPriority()
{
    // A job's task can run on the UI thread: QFuture::waitForFinished() runs a task that has not
    // started yet on the waiting thread (as a job's destructor waits for its runs), and the lowered
    // priority would then stay with the window for the rest of the process.
    const auto* app = QCoreApplication::instance();
    if (app && QThread::currentThread() == app->thread())
        return;
#if defined(__linux__)
    // PRIO_PROCESS with a thread id addresses one thread on Linux (not the whole process).
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    const int current = currentThreadNice();
    if (current < kBackgroundNice)
        ::setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

int currentThreadNice()
{
#if defined(__linux__)
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
    return errno == 0 ? nice : 0;
#else
    return 0;
#endif
}

} // namespace drasim::ui
