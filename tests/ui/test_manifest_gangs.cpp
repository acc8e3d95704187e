// SPDX-License-Identifier: Apache-2.0
// A gang in manifests opened without a scenario: the Pods tab schedules them as `drasim allocate`
// does at the Kubernetes version and feature gates chosen beside its filter, shows the PodGroup as
// one row with its members under it, and explains the group through a pending member in the
// words of `drasim explain`. Gates that kube-scheduler would refuse are shown, not applied.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/allocation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/pods_model.h"
#include "ui/pages/pods_page.h"

using namespace drasim;
using drasim::ui::MainWindow;
using drasim::ui::PodsModel;
using drasim::ui::PodsPage;

// Named, so that a unity build does not meet other window tests' helpers of the same names.
namespace manifest_gangs_test {

QString gangFile()
{
    return sourcePath("tests/cli/data/gang-allocate-unschedulable.yaml");
}

/// The top-level row whose Name column reads `name`.
QModelIndex topRow(QAbstractItemModel* model, const QString& name)
{
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, PodsModel::NameColumn).data().toString() == name)
            return model->index(r, 0);
    return {};
}

QString cell(const QModelIndex& row, int column)
{
    return row.siblingAtColumn(column).data().toString();
}

/// Shows the Pods tab and opens the gang's manifests in it; true once they are scheduled.
bool openOnPodsTab(MainWindow& w, const QString& path)
{
    QSignalSpy scheduled(w.podsPage()->job(), &ui::AllocationJob::scheduled);
    w.show();
    w.pages()->setCurrentWidget(w.podsPage());
    w.openPaths({ path });
    return scheduled.wait(30000);
}

/// Types the gates and confirms them as a user does (Enter), then waits for the new scheduling.
bool applyGates(MainWindow& w, const QString& gates)
{
    PodsPage* page = w.podsPage();
    QSignalSpy scheduled(page->job(), &ui::AllocationJob::scheduled);
    page->gatesEdit()->setText(gates);
    Q_EMIT page->gatesEdit()->editingFinished();
    return scheduled.wait(30000);
}

} // namespace manifest_gangs_test

using namespace manifest_gangs_test;

TEST(ManifestGangs, TheGangIsOneRowOnceItsGateIsOnAndTheGroupSaysWhyItWaits)
{
    MainWindow w;
    w.resize(1400, 900);
    PodsPage* page = w.podsPage();
    QAbstractItemModelTester tester(page->podsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy shown(page, &PodsPage::diagnosisShown);
    ASSERT_TRUE(openOnPodsTab(w, gangFile()));
    // 1.37 defaults: GenericWorkload is off, the API server drops spec.schedulingGroup, every pod
    // is its own row and the gang's first two workers run.
    EXPECT_EQ(page->versionBox()->currentText(), QStringLiteral("Kubernetes 1.37"));
    EXPECT_TRUE(page->versionBox()->isEnabled());
    EXPECT_EQ(page->podsModel()->groupCount(), 0);
    EXPECT_EQ(page->podsModel()->rowCount(), 4);
    EXPECT_FALSE(page->podsView()->rootIsDecorated());

    ASSERT_TRUE(applyGates(w, QStringLiteral("GenericWorkload=true")));
    EXPECT_FALSE(page->gatesProblem()->isVisibleTo(page));
    EXPECT_TRUE(w.document()->manifestGates().enabled("GenericWorkload"));
    ASSERT_EQ(page->podsModel()->groupCount(), 1);
    EXPECT_EQ(page->podsModel()->podCount(), 4);
    QAbstractItemModel* shownModel = page->podsView()->model();
    EXPECT_EQ(shownModel->rowCount(), 2); // the gang's row and solo
    EXPECT_TRUE(page->podsView()->rootIsDecorated());
    const QModelIndex gang = topRow(shownModel, QStringLiteral("train-workers"));
    ASSERT_TRUE(gang.isValid());
    EXPECT_TRUE(gang.data(PodsModel::IsGroupRole).toBool());
    EXPECT_EQ(cell(gang, PodsModel::StatusColumn), QStringLiteral("Pending"));
    // The group's condition: the cycle's reason, then what workload-aware preemption said.
    EXPECT_EQ(cell(gang, PodsModel::MessageColumn),
        QStringLiteral(
            "gang, minCount 3 · 0 of 3 bound: minCount (3) cannot be satisfied: 2 scheduled, 0 "
            "remaining, pod group preemption: No preemption victims found for incoming preemptor"));
    EXPECT_EQ(gang.data(PodsModel::MinCountRole).toInt(), 3);
    EXPECT_EQ(gang.data(PodsModel::MembersRole).toInt(), 3);
    EXPECT_EQ(gang.data(PodsModel::ExplainKeyRole).toString(), QStringLiteral("default/worker-0"));
    ASSERT_EQ(shownModel->rowCount(gang), 3);
    EXPECT_TRUE(page->podsView()->isExpanded(gang));
    for (int m = 0; m < 3; ++m) {
        const QModelIndex worker = shownModel->index(m, 0, gang);
        EXPECT_EQ(cell(worker, PodsModel::NameColumn), QStringLiteral("worker-%1").arg(m));
        EXPECT_EQ(cell(worker, PodsModel::StatusColumn), QStringLiteral("Pending"));
        EXPECT_EQ(worker.data(PodsModel::GroupKeyRole).toString(), QStringLiteral("default/train-workers"));
    }
    // The pod after the gang gets the node the failed cycle left whole.
    const QModelIndex solo = topRow(shownModel, QStringLiteral("solo"));
    EXPECT_EQ(cell(solo, PodsModel::StatusColumn), QStringLiteral("Scheduled"));
    EXPECT_EQ(cell(solo, PodsModel::NodeColumn), QStringLiteral("node-a"));

    // The group's row: its account, then the scheduler's through its first pending member, in
    // the words `drasim explain` prints for that member.
    shown.clear();
    ASSERT_TRUE(page->selectGroup(QStringLiteral("default/train-workers")));
    ASSERT_TRUE(shown.count() > 0 || shown.wait(30000));
    while (shown.last().at(0).toString() != QStringLiteral("default/worker-0"))
        ASSERT_TRUE(shown.wait(30000));
    const QString text = page->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Pod group default/train-workers after scheduling: pending")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("0 of its 3 members bound, 3 pending."))) << text.toStdString();
    QProcess explain;
    explain.start(QStringLiteral(DRASIM_CLI_PATH),
        { QStringLiteral("explain"), QStringLiteral("worker-0"),
            QStringLiteral("--feature-gates=GenericWorkload=true"), gangFile() });
    ASSERT_TRUE(explain.waitForFinished(60000));
    ASSERT_EQ(explain.exitCode(), 0);
    const QString printed = QString::fromUtf8(explain.readAllStandardOutput());
    const QString groupLine = printed.section(QLatin1Char('\n'), 1, 1).trimmed();
    ASSERT_TRUE(groupLine.startsWith(QStringLiteral("pod group default/train-workers (gang, minCount 3)")))
        << printed.toStdString();
    EXPECT_TRUE(text.contains(groupLine)) << text.toStdString() << "\n---\n" << printed.toStdString();
}

TEST(ManifestGangs, GatesTheSchedulerWouldRefuseAreShownAndNotApplied)
{
    MainWindow w;
    PodsPage* page = w.podsPage();
    ASSERT_TRUE(openOnPodsTab(w, gangFile()));
    QSignalSpy opened(w.document(), &ui::Document::opened);
    page->gatesEdit()->setText(QStringLiteral("NoSuchGate=true"));
    Q_EMIT page->gatesEdit()->editingFinished();
    EXPECT_TRUE(page->gatesProblem()->isVisibleTo(page));
    EXPECT_TRUE(
        page->gatesProblem()->text().contains(QStringLiteral("unrecognized feature gate: NoSuchGate")))
        << page->gatesProblem()->text().toStdString();
    EXPECT_EQ(w.document()->manifestGates(), api::FeatureGates());
    EXPECT_FALSE(opened.wait(500)); // nothing was opened again
    // A dependency left off is refused as kube-scheduler refuses it.
    page->gatesEdit()->setText(QStringLiteral("CompositePodGroup=true"));
    Q_EMIT page->gatesEdit()->editingFinished();
    EXPECT_TRUE(
        page->gatesProblem()->text().contains(QStringLiteral("depends on features that are disabled")))
        << page->gatesProblem()->text().toStdString();
    // Mended, the problem goes and the gates apply.
    ASSERT_TRUE(applyGates(w, QStringLiteral("GenericWorkload=true")));
    EXPECT_FALSE(page->gatesProblem()->isVisibleTo(page));
    EXPECT_EQ(page->podsModel()->groupCount(), 1);
}

TEST(ManifestGangs, TheVersionChoosesTheApisServedAndAScenarioShowsItsOwn)
{
    MainWindow w;
    PodsPage* page = w.podsPage();
    // v1alpha2 PodGroups are served by 1.36 only, with the gang behind its own gate there.
    ASSERT_TRUE(openOnPodsTab(w, sourcePath("tests/cli/data/gang-allocate-1.36.yaml")));
    QSignalSpy scheduled(page->job(), &ui::AllocationJob::scheduled);
    EXPECT_EQ(page->podsModel()->groupCount(), 0);
    page->versionBox()->setCurrentIndex(page->versionBox()->findText(QStringLiteral("Kubernetes 1.36")));
    page->gatesEdit()->setText(QStringLiteral("GenericWorkload=true,GangScheduling=true"));
    Q_EMIT page->versionBox()->activated(page->versionBox()->currentIndex());
    ASSERT_TRUE(scheduled.wait(30000));
    EXPECT_EQ(w.document()->manifestGates().version(), api::KubernetesVersion::V1_36);
    EXPECT_EQ(w.document()->featureGates().version(), api::KubernetesVersion::V1_36);
    ASSERT_EQ(page->podsModel()->groupCount(), 1);
    const QModelIndex gang = topRow(page->podsView()->model(), QStringLiteral("train-workers"));
    EXPECT_EQ(cell(gang, PodsModel::StatusColumn), QStringLiteral("Scheduled"));
    EXPECT_EQ(cell(gang, PodsModel::MessageColumn), QStringLiteral("gang, minCount 2 · 2 of 2 bound"));
    QSignalSpy opened(w.document(), &ui::Document::opened);
    // A scenario's own version is shown, and cannot be changed here.
    w.openPaths({ sourcePath("scenarios/learn/15-topology-aware-gang/scenario.yaml") });
    ASSERT_TRUE(opened.wait(30000));
    EXPECT_FALSE(page->versionBox()->isEnabled());
    EXPECT_TRUE(page->gatesEdit()->isReadOnly());
    EXPECT_EQ(page->versionBox()->currentData().toInt(), int(w.document()->featureGates().version()));
}
