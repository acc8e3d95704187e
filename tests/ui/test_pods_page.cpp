// SPDX-License-Identifier: Apache-2.0
// Pods and claims as the scheduler leaves them, filtered and sorted, and a pending pod explained
// in plain words (the core's diagnosis, as `drasim explain` prints it); screenshots of each view.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QFontMetrics>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/allocation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/claims_model.h"
#include "ui/models/diagnosis_text.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/replay_pods_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/screenshot_driver.h"

using drasim::ui::MainWindow;
using drasim::ui::PodsModel;
using drasim::ui::PodsPage;

TEST(PodsPage, APendingPodIsExplainedInPlainWords)
{
    MainWindow w;
    PodsPage* page = w.podsPage();
    using Tester = QAbstractItemModelTester;
    Tester podsTester(page->podsModel(), Tester::FailureReportingMode::Fatal);
    Tester claimsTester(page->claimsModel(), Tester::FailureReportingMode::Fatal);
    Tester proxyTester(page->podsView()->model(), Tester::FailureReportingMode::Fatal);
    QSignalSpy shown(page, &PodsPage::diagnosisShown);
    w.show();
    w.openPaths({ sourcePath("scenarios/learn/13-pending-pod") });
    ASSERT_TRUE(shown.wait(30000));

    EXPECT_EQ(page->podsModel()->rowCount(), 5);
    EXPECT_EQ(page->podsModel()->pendingCount(), 1);
    EXPECT_EQ(page->claimsModel()->rowCount(), 4);
    // The first pending pod is selected and explained right away.
    EXPECT_EQ(shown.at(0).at(0).toString().toStdString(), "default/finetune-7b");
    const QString text = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Pod default/finetune-7b is pending"))) << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("Node l40s-1: the node itself does not fit the pod (Insufficient cpu)")))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("1 of the 6 devices on this node could serve it. The others: 3 are "
                                     "already allocated to another claim; 2 are not matched by the "
                                     "DeviceClass's selector.")))
        << text.toStdString();

    // Two paths to one answer: the pane ends with the diagnosis exactly as `drasim explain`
    // prints it for the same pod and input.
    QProcess explain;
    explain.start(QStringLiteral(DRASIM_CLI_PATH),
        { QStringLiteral("explain"), QStringLiteral("default/finetune-7b"),
            sourcePath("scenarios/learn/13-pending-pod") });
    ASSERT_TRUE(explain.waitForFinished(60000));
    EXPECT_EQ(explain.exitCode(), 0);
    const QString printed = QString::fromUtf8(explain.readAllStandardOutput()).trimmed();
    ASSERT_TRUE(printed.startsWith(QStringLiteral("Pod default/finetune-7b: pending")))
        << printed.toStdString();
    EXPECT_TRUE(text.trimmed().endsWith(printed)) << text.toStdString() << "\n---\n" << printed.toStdString();

    // Selecting a placed pod says where it runs.
    shown.clear();
    ASSERT_TRUE(page->selectPod(QStringLiteral("default/inference-0")));
    ASSERT_EQ(shown.count(), 1);
    EXPECT_TRUE(page->diagnosisView()->toPlainText().contains(QStringLiteral("it runs on node l40s-0")));

    // Filter on any column; sort by status.
    page->filter()->setText(QStringLiteral("l40s-1"));
    EXPECT_EQ(page->podsView()->model()->rowCount(), 1);
    EXPECT_EQ(page->podsView()->model()->index(0, PodsModel::NameColumn).data().toString().toStdString(),
        "preprocess");
    page->filter()->setText(QStringLiteral("FINETUNE"));
    EXPECT_EQ(page->podsView()->model()->rowCount(), 1);
    EXPECT_EQ(page->claimsView()->model()->rowCount(), 1);
    page->filter()->clear();
    page->podsView()->sortByColumn(PodsModel::StatusColumn, Qt::AscendingOrder);
    EXPECT_EQ(page->podsView()->model()->index(0, PodsModel::StatusColumn).data().toString().toStdString(),
        "Pending");
}

TEST(PodsPage, APreemptionVictimIsMarkedAndThePreemptorsPaneSaysWhomEachNodeWouldEvict)
{
    MainWindow w;
    PodsPage* page = w.podsPage();
    QSignalSpy shown(page, &PodsPage::diagnosisShown);
    w.show();
    w.openPaths({ sourcePath("scenarios/learn/16-preemption") });
    ASSERT_TRUE(shown.wait(30000));
    const QAbstractItemModel* pods = page->podsModel();
    int victim = -1;
    for (int row = 0; row < pods->rowCount(); ++row)
        if (pods->index(row, 0).data(PodsModel::PodKeyRole).toString()
            == QLatin1String("default/train-plugin"))
            victim = row;
    ASSERT_GE(victim, 0);
    EXPECT_EQ(pods->index(victim, PodsModel::StatusColumn).data().toString(), QStringLiteral("Preempted"));
    EXPECT_TRUE(pods->index(victim, 0).data(PodsModel::PreemptedRole).toBool());

    // The explanation is worked out in the background: wait for the pod's own heading.
    auto explained = [page](const QString& heading) {
        return QTest::qWaitFor([&] { return page->diagnosisView()->toPlainText().contains(heading); }, 30000);
    };
    // The DRA preemptor: no node helps, and the pane says why.
    ASSERT_TRUE(page->selectPod(QStringLiteral("default/infer-dra")));
    ASSERT_TRUE(explained(QStringLiteral("Pod default/infer-dra is pending")));
    const QString dra = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(dra.contains(QStringLiteral("Pod default/infer-dra is pending"))) << dra.toStdString();
    EXPECT_TRUE(dra.contains(QStringLiteral("Preemption here: not a candidate: evicting pods does not change "
                                            "what rejects the pod here")))
        << dra.toStdString();

    ASSERT_TRUE(page->selectPod(QStringLiteral("default/infer-plugin")));
    ASSERT_TRUE(explained(QStringLiteral("Pod default/infer-plugin is pending")));
    const QString text = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Pod default/infer-plugin is pending"))) << text.toStdString();
    // The pod's outcome, then each node's line, as core words them (`drasim explain` prints the same).
    EXPECT_TRUE(text.contains(QStringLiteral("nominated node plugin-node-0, evicting default/train-plugin")))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("Preemption here: would evict default/train-plugin (priority 1000)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(
        QStringLiteral("Preemption here: evicting every lower-priority pod here would not make room")))
        << text.toStdString();
}

TEST(PodsPage, APodWhoseClaimTemplateIsMissingIsExplainedToo)
{
    MainWindow w;
    QSignalSpy shown(w.podsPage(), &PodsPage::diagnosisShown);
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(shown.wait(30000));
    EXPECT_EQ(w.podsPage()->podsModel()->rowCount(), 2);
    EXPECT_EQ(w.podsPage()->podsModel()->pendingCount(), 1);
    EXPECT_EQ(shown.at(0).at(0).toString().toStdString(), "research/notebook");
    const QString text = w.podsPage()->diagnosisView()->toPlainText();
    EXPECT_TRUE(
        text.contains(QStringLiteral("resourceclaimtemplate.resource.k8s.io \"single-h100\" not found")))
        << text.toStdString();
}

TEST(DiagnosisText, EveryRejectReasonHasItsOwnWords)
{
    QStringList seen;
    for (size_t i = 0; i < drasim::scheduler::kDeviceRejectReasonCount; ++i) {
        const QString words = drasim::ui::rejectReasonInWords(drasim::scheduler::DeviceRejectReason(i));
        EXPECT_FALSE(words.contains(QLatin1Char('_'))) << words.toStdString(); // not the identifier
        EXPECT_FALSE(seen.contains(words)) << words.toStdString();
        seen << words;
    }
}

class ScreenshotView : public ::testing::TestWithParam<std::pair<const char*, const char*>>
{
};

TEST_P(ScreenshotView, RendersTheViewOffscreen)
{
    const auto [view, input] = GetParam();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("shot.png"));
    MainWindow w;
    w.setRunStorePath(QString());
    w.show();
    drasim::ui::ScreenshotDriver driver(&w, QString::fromLatin1(view), file);
    QSignalSpy done(&driver, &drasim::ui::ScreenshotDriver::done);
    w.openPaths({ sourcePath(input) });
    ASSERT_TRUE(done.wait(120000));
    EXPECT_TRUE(done.at(0).at(0).toBool()) << done.at(0).at(1).toString().toStdString();
    const QImage image(file);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), w.size() * w.devicePixelRatio());
    const QString expectedTab = QString::fromLatin1(view) == QLatin1String("cluster")
        ? QStringLiteral("Cluster")
        : QString::fromLatin1(view) == QLatin1String("pods") ? QStringLiteral("Pods and claims")
                                                             : QStringLiteral("Simulation");
    EXPECT_EQ(w.pages()->tabText(w.pages()->currentIndex()).toStdString(), expectedTab.toStdString());
}

INSTANTIATE_TEST_SUITE_P(Views, ScreenshotView,
    ::testing::Values(std::make_pair("cluster", "scenarios/sim/default/scenario.yaml"),
        std::make_pair("dashboard", "scenarios/sim/default/scenario.yaml"),
        std::make_pair("pods", "scenarios/learn/13-pending-pod")));

TEST(PodsPage, AScenariosPodsFollowTheTimelineAndAPendingPodSaysWhatTheSchedulerSaid)
{
    MainWindow w;
    w.setRunStorePath(QString());
    PodsPage* page = w.podsPage();
    using Tester = QAbstractItemModelTester;
    Tester replayTester(page->replayPodsModel(), Tester::FailureReportingMode::Fatal);
    Tester proxyTester(page->podsView()->model(), Tester::FailureReportingMode::Fatal);
    QSignalSpy replayed(w.timelinePage(), &drasim::ui::TimelinePage::replayReady);
    w.show();
    w.openPaths({ sourcePath("scenarios/sim/default/scenario.yaml") });
    ASSERT_TRUE(replayed.wait(180000));
    EXPECT_TRUE(page->showsReplay());
    EXPECT_FALSE(page->claimsView()->isVisible());

    // Scrub to the first time the scheduler turned a pod away.
    drasim::ui::TimeCursor* cursor = w.timelinePage()->cursor();
    const auto replay = cursor->replay();
    ASSERT_TRUE(replay);
    const auto& events = replay->events();
    const auto turnedAway = std::find_if(events.begin(), events.end(),
        [](const drasim::ui::ReplayEvent& e) { return e.type == drasim::sim::PodEventType::Unschedulable; });
    ASSERT_NE(turnedAway, events.end());
    cursor->setTime(turnedAway->time);
    const drasim::ui::ReplayState state = replay->stateAt(turnedAway->time);
    EXPECT_EQ(page->replayPodsModel()->rowCount(), int(state.running.size() + state.pending.size()));
    EXPECT_EQ(page->replayPodsModel()->pendingCount(), int(state.pending.size()));
    ASSERT_TRUE(state.pending.count(turnedAway->pod));

    // Selecting the pending pod tells when it came and what the scheduler said, word for word.
    const QString pod = QString::fromStdString(turnedAway->pod);
    ASSERT_TRUE(page->selectPod(pod)); // (it may be selected already: the first pending pod is)
    const QString text = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(
        QStringLiteral("Pod %1 is pending at %2").arg(pod, drasim::ui::formatSimTime(turnedAway->time))))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QString::fromStdString(state.pending.at(turnedAway->pod))))
        << text.toStdString();
    EXPECT_FALSE(turnedAway->message.empty());

    // The message column's title shows whole in the room the other columns leave it.
    w.resize(1280, 800);
    w.pages()->setCurrentWidget(page);
    QApplication::processEvents();
    const QHeaderView* header = page->podsView()->header();
    const int last = PodsModel::MessageColumn;
    const QString title = page->podsView()->model()->headerData(last, Qt::Horizontal).toString();
    EXPECT_GE(header->sectionSize(last), QFontMetrics(header->font()).horizontalAdvance(title) + 8)
        << title.toStdString() << " in " << header->sectionSize(last) << " px";

    // The chosen pod stays chosen as time moves; at the end of the run the table is that moment's.
    cursor->setTime(cursor->endTime());
    const drasim::ui::ReplayState end = replay->stateAt(cursor->endTime());
    EXPECT_EQ(page->replayPodsModel()->rowCount(), int(end.running.size() + end.pending.size()));
    if (end.running.count(turnedAway->pod) || end.pending.count(turnedAway->pod)) {
        EXPECT_EQ(page->podsView()->currentIndex().data(PodsModel::PodKeyRole).toString(), pod);
    }

    // Manifests again: the one-shot scheduling with its claims.
    QSignalSpy scheduled(page->job(), &drasim::ui::AllocationJob::scheduled);
    w.openPaths({ sourcePath("scenarios/learn/13-pending-pod") });
    ASSERT_TRUE(scheduled.wait(30000));
    EXPECT_FALSE(page->showsReplay());
    EXPECT_EQ(page->podsView()->model()->rowCount(), 5);
}

TEST(PodsPage, APendingPodOfARunIsExplainedNodeByNodeAtTheTimelinesTime)
{
    MainWindow w;
    w.setRunStorePath(QString());
    PodsPage* page = w.podsPage();
    QSignalSpy replayed(w.timelinePage(), &drasim::ui::TimelinePage::replayReady);
    QSignalSpy shownAt(page, &PodsPage::diagnosisAtShown);
    w.show();
    const QString scenario = sourcePath("scenarios/sim/default/scenario.yaml");
    w.openPaths({ scenario });
    ASSERT_TRUE(replayed.wait(180000));
    // The CLI runs the scenario with its own seed; so must the run shown here.
    ASSERT_TRUE(w.document()->prepared());
    ASSERT_FALSE(w.document()->seedOverride().has_value());

    drasim::ui::TimeCursor* cursor = w.timelinePage()->cursor();
    const qint64 at = (3 * 3600 + 10 * 60) * drasim::sim::kSecond;
    cursor->setTime(at);
    const QString pod = QStringLiteral("default/training-3-0");
    ASSERT_TRUE(cursor->state().pending.count(pod.toStdString()));
    shownAt.clear(); // the first pending pod may have been explained already
    ASSERT_TRUE(page->selectPod(pod));
    // Before the answer: what the scheduler said, recorded in the run, is shown while it is worked out.
    const QString waiting = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(
        waiting.contains(QStringLiteral("Pod %1 is pending at %2").arg(pod, drasim::ui::formatSimTime(at))))
        << waiting.toStdString();
    while (shownAt.isEmpty() || shownAt.last().at(0).toString() != pod)
        ASSERT_TRUE(shownAt.wait(180000));
    EXPECT_EQ(shownAt.last().at(1).toLongLong(), at);
    const QString text = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(
        text.contains(QStringLiteral("Pod %1 is pending at %2").arg(pod, drasim::ui::formatSimTime(at))))
        << text.toStdString(); // the recorded words stay
    EXPECT_TRUE(text.contains(QStringLiteral("Node by node, this is what stands in the way")))
        << text.toStdString();

    // Two paths to one answer: the pane ends with what `drasim explain --at` prints.
    QProcess explain;
    explain.start(QStringLiteral(DRASIM_CLI_PATH),
        { QStringLiteral("explain"), QStringLiteral("--at"), QStringLiteral("3h10m"), pod, scenario });
    ASSERT_TRUE(explain.waitForFinished(180000));
    EXPECT_EQ(explain.exitCode(), 0) << explain.readAllStandardError().toStdString();
    const QString printed = QString::fromUtf8(explain.readAllStandardOutput()).trimmed();
    ASSERT_TRUE(printed.startsWith(QStringLiteral("Pod default/training-3-0: pending")))
        << printed.toStdString();
    EXPECT_TRUE(text.trimmed().endsWith(printed)) << text.toStdString() << "\n---\n" << printed.toStdString();
}
