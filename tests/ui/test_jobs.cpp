// SPDX-License-Identifier: Apache-2.0
// Background jobs: cancelling a load stops the loader itself (not only its result), a newer load
// supersedes an older one, and background pools run at background priority.
#include <memory>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "core/session/session.h"
#include "tests/ui/source_path.h"
#include "ui/jobs/background_pool.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/open_job.h"

using drasim::ui::OpenJob;

namespace {

/// Many small documents: long enough to load that a cancel lands while it runs.
QString writeManyClasses(const QTemporaryDir& dir, int count)
{
    const QString path = dir.filePath(QStringLiteral("classes.yaml"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    for (int i = 0; i < count; ++i)
        f.write(QStringLiteral(
            "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: c-%1\n"
            "spec:\n  selectors:\n  - cel:\n      expression: device.driver == \"x.example.com\"\n")
                    .arg(i)
                    .toUtf8());
    return path;
}

} // namespace

TEST(OpenJob, DeliversTheObjectsWithProgress)
{
    QTemporaryDir dir;
    const QString file = writeManyClasses(dir, 200);
    OpenJob job;
    QSignalSpy loaded(&job, &OpenJob::opened);
    QSignalSpy progress(&job, &OpenJob::progressChanged);
    job.start({ file });
    EXPECT_TRUE(job.isRunning());
    ASSERT_TRUE(loaded.wait(20000));
    EXPECT_FALSE(job.isRunning());
    auto session = loaded.at(0).at(0).value<std::shared_ptr<drasim::session::Session>>();
    ASSERT_TRUE(session);
    EXPECT_FALSE(session->diagnostics().hasErrors());
    EXPECT_EQ(session->objects().deviceClasses.size(), 200u);
    ASSERT_GE(progress.count(), 1); // the first report is never throttled
    EXPECT_GE(progress.at(0).at(0).toDouble(), 0.0);
    EXPECT_LE(progress.at(0).at(0).toDouble(), 1.0);
}

TEST(OpenJob, CancelStopsTheLoaderAndReportsHowFarItGot)
{
    QTemporaryDir dir;
    const QString file = writeManyClasses(dir, 20000); // about 4 MB
    OpenJob job;
    QSignalSpy loaded(&job, &OpenJob::opened);
    QSignalSpy cancelled(&job, &OpenJob::cancelled);
    job.start({ file });
    job.cancel();
    ASSERT_TRUE(cancelled.wait(20000));
    // The worker stopped early instead of reading the whole file and dropping the result.
    EXPECT_LT(cancelled.at(0).at(0).toDouble(), 0.5);
    EXPECT_TRUE(job.waitForIdle(5000)); // the thread returns right after the result
    EXPECT_FALSE(job.isRunning());
    EXPECT_EQ(loaded.count(), 0);
    EXPECT_FALSE(loaded.wait(300));
}

TEST(OpenJob, ANewerLoadSupersedesTheRunningOne)
{
    QTemporaryDir dir;
    const QString big = writeManyClasses(dir, 20000);
    OpenJob job;
    QSignalSpy loaded(&job, &OpenJob::opened);
    QSignalSpy cancelled(&job, &OpenJob::cancelled);
    job.start({ big });
    job.start({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(loaded.wait(20000));
    EXPECT_TRUE(job.waitForIdle(20000));
    QCoreApplication::processEvents();
    ASSERT_EQ(loaded.count(), 1);
    EXPECT_EQ(loaded.at(0).at(1).toStringList().value(0).toStdString(),
        sourcePath("scenarios/basic/cluster.yaml").toStdString());
    EXPECT_EQ(cancelled.count(), 0); // superseded, not cancelled by the user
}

// The pages' background builds (topology index, timeline replay, CEL preview, editor checks) run
// on pools of their own at background priority (PlanJob.TheUiThreadIsNeverLowered covers a task
// the waiting UI thread ends up running itself).
TEST(BackgroundPool, TasksRunOnItsOwnThreadsAtBackgroundPriority)
{
    const int ui = drasim::ui::currentThreadNice();
    ASSERT_LT(ui, 10) << "the test process already runs at background priority";
    drasim::ui::BackgroundPool pool;
    QThread* uiThread = QThread::currentThread();
    auto future = pool.run([uiThread]() {
        return std::make_pair(drasim::ui::currentThreadNice(), QThread::currentThread() == uiThread);
    });
    // Polled rather than waited for: result() on a task not yet started would run it right here.
    for (int i = 0; i < 6000 && !future.isFinished(); ++i)
        QThread::msleep(10);
    ASSERT_TRUE(future.isFinished());
    const auto [nice, onUiThread] = future.result();
    EXPECT_FALSE(onUiThread);
    EXPECT_GE(nice, 10);
    EXPECT_EQ(drasim::ui::currentThreadNice(), ui); // the caller is untouched
}
