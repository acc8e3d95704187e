// SPDX-License-Identifier: Apache-2.0
// Closing the window or replacing the document of a 5,000-node scenario: every worker is told to
// stop at once (a run still building its cluster stops before it begins, so the run history holds
// nothing half written), and the replaced document's objects are freed, not kept by some page.
#include <memory>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include "core/storage/run_store.h"
#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/pages/simulation_page.h"

using drasim::ui::Document;
using drasim::ui::MainWindow;
using drasim::ui::SimulationJob;

TEST(ClosingLarge, ClosingWhileARunBuildsItsClusterStopsItBeforeItBegins)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    {
        auto w = std::make_unique<MainWindow>();
        w->setRunStorePath(store);
        w->show();
        QSignalSpy started(w->simulationPage()->job(), &SimulationJob::started);
        w->openPaths({ sourcePath("scenarios/sim/large-5000/scenario.yaml") });
        ASSERT_TRUE(started.wait(180000));
        // The run is building the scheduler's model of 5,000 nodes now; closing stops it there.
        w.reset();
    }
    drasim::storage::RunStore runs(store.toStdString());
    for (const auto& run : runs.runs())
        ADD_FAILURE() << "run " << run.id << " was recorded as " << run.status;
}

TEST(ClosingLarge, ReplacingALargeDocumentFreesItsObjects)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.show();
    QSignalSpy opened(w.document(), &Document::opened);
    w.openPaths({ sourcePath("scenarios/sim/large-5000/scenario.yaml") });
    ASSERT_TRUE(opened.wait(180000));
    std::weak_ptr<const drasim::api::ObjectSet> large = w.document()->objects();
    ASSERT_EQ(large.lock()->nodes.size(), 5000u);
    QTest::qWait(200); // the pages start on it: a run, the topology's index

    w.openPaths({ defaultScenario() });
    ASSERT_TRUE(opened.wait(180000));
    EXPECT_EQ(w.document()->objects()->nodes.size(), 10u);
    // The run and the index of the large one stop, and the last reference goes with them.
    for (int waited = 0; !large.expired() && waited < 60000; waited += 50)
        QTest::qWait(50);
    EXPECT_TRUE(large.expired()) << "something still holds the replaced document's objects";
}
