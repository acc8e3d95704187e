// SPDX-License-Identifier: Apache-2.0
// Preemption as the desktop shows it: a victim in the Pods table (from a run's pod events, or
// from the DisruptionTarget condition an allocation leaves), and the per-node preemption lines of
// core's diagnosis in the explanation pane's prose.
#include <string>
#include <utility>
#include <vector>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QColor>

#include <gtest/gtest.h>

#include "core/scheduler/diagnosis.h"
#include "tests/ui/replay_event.h"
#include "ui/models/diagnosis_text.h"
#include "ui/models/pod_replay.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_pods_model.h"
#include "ui/models/tone_colors.h"

using namespace drasim;
using ui::PodsModel;
using Type = sim::PodEventType;

// Named, so that a unity build does not meet the replay tests' helpers of the same names.
namespace preemption_shown_test {

using drasim::testing::replayEvent;

/// ns/low runs on n0 until ns/high preempts it at 50ms; its grace period ends at 80ms.
ui::PodReplay preemptedRun()
{
    ui::PodReplay r;
    r.append(replayEvent(0, Type::Created, "ns/low"));
    r.append(replayEvent(0, Type::Scheduled, "ns/low", "n0"));
    r.append(replayEvent(40, Type::Created, "ns/high"));
    r.append(
        replayEvent(50, Type::Unschedulable, "ns/high", {}, "0/1 nodes are available: 1 Insufficient gpu."));
    r.append(
        replayEvent(50, Type::Preempted, "ns/low", "n0", "preempted by ns/high (priority 100) on node n0"));
    r.append(replayEvent(80, Type::Evicted, "ns/low", "n0"));
    return r;
}

int rowOf(const QAbstractItemModel& model, const QString& key)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data(PodsModel::PodKeyRole).toString() == key)
            return row;
    return -1;
}

} // namespace preemption_shown_test

using namespace preemption_shown_test;

TEST(PreemptionShown, ARunsVictimReadsPreemptedWithWhoPreemptedItUntilItIsEvicted)
{
    const ui::PodReplay replay = preemptedRun();
    ui::ReplayPodsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // Before the preemption: an ordinary running pod.
    model.setState(replay.stateAt(45));
    int low = rowOf(model, QStringLiteral("ns/low"));
    ASSERT_GE(low, 0);
    EXPECT_EQ(model.index(low, PodsModel::StatusColumn).data().toString(), QStringLiteral("Running"));
    EXPECT_FALSE(model.index(low, 0).data(PodsModel::PreemptedRole).toBool());

    // Through its grace period: still on its node, marked, saying who preempted it.
    const ui::ReplayState during = replay.stateAt(60);
    model.setState(during);
    low = rowOf(model, QStringLiteral("ns/low"));
    ASSERT_GE(low, 0);
    EXPECT_EQ(model.index(low, PodsModel::StatusColumn).data().toString(), QStringLiteral("Preempted"));
    EXPECT_EQ(model.index(low, PodsModel::NodeColumn).data().toString(), QStringLiteral("n0"));
    EXPECT_EQ(model.index(low, PodsModel::MessageColumn).data().toString(),
        QStringLiteral("preempted by ns/high (priority 100) on node n0"));
    EXPECT_TRUE(model.index(low, 0).data(PodsModel::PreemptedRole).toBool());
    EXPECT_EQ(model.index(low, PodsModel::StatusColumn).data(Qt::ForegroundRole).value<QBrush>().color(),
        ui::toneColor(ui::Tone::Warning));
    const QString words = ui::replayedPodInWords(replay, during, "ns/low");
    EXPECT_TRUE(words.contains(QStringLiteral("Running on node <b>n0</b>"))) << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral(
        "Chosen as a preemption victim: <i>preempted by ns/high (priority 100) on node n0</i>")))
        << words.toStdString();

    // Evicted: gone from the table, counted, no longer marked.
    const ui::ReplayState after = replay.stateAt(90);
    EXPECT_TRUE(after.preempted.empty());
    EXPECT_EQ(after.evicted, 1);
    model.setState(after);
    EXPECT_EQ(rowOf(model, QStringLiteral("ns/low")), -1);
}

TEST(PreemptionShown, AnAllocationsVictimReadsPreemptedWithTheConditionsMessage)
{
    api::Pod victim;
    victim.meta.namespace_ = "default";
    victim.meta.name = "train-plugin";
    victim.spec.nodeName = "plugin-node-0";
    victim.conditions.push_back({ "DisruptionTarget", "True", "PreemptionByScheduler",
        "default-scheduler: preempting to accommodate a higher priority pod" });
    api::Pod other = victim;
    other.meta.name = "other";
    other.conditions.clear();
    PodsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setPods({ victim, other });
    const int row = rowOf(model, QStringLiteral("default/train-plugin"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(model.index(row, PodsModel::StatusColumn).data().toString(), QStringLiteral("Preempted"));
    EXPECT_EQ(model.index(row, PodsModel::MessageColumn).data().toString(),
        QStringLiteral("default-scheduler: preempting to accommodate a higher priority pod"));
    EXPECT_TRUE(model.index(row, 0).data(PodsModel::PreemptedRole).toBool());
    EXPECT_EQ(model.pendingCount(), 0); // a victim still holds its node
    const int plain = rowOf(model, QStringLiteral("default/other"));
    EXPECT_EQ(model.index(plain, PodsModel::StatusColumn).data().toString(), QStringLiteral("Scheduled"));
    EXPECT_FALSE(model.index(plain, 0).data(PodsModel::PreemptedRole).toBool());
}

TEST(PreemptionShown, TheExplanationGivesThePodsAndEachNodesPreemptionLines)
{
    scheduler::PodDiagnosis d;
    d.pod = "default/infer-plugin";
    d.message = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";
    d.preemption = "preemption: nominated node plugin-node-0, evicting default/train-plugin (priority 1000)\n"
                   "second <line>";
    scheduler::NodeDiagnosis helps;
    helps.node = "plugin-node-0";
    helps.nodeReasons = { "Insufficient nvidia.com/gpu" };
    helps.preemption = "would evict default/train-plugin (priority 1000)";
    scheduler::NodeDiagnosis quiet;
    quiet.node = "quiet-node";
    quiet.nodeReasons = { "Insufficient cpu" };
    d.nodes = { helps, quiet };
    const QString html = ui::diagnosisInWords(d);
    EXPECT_TRUE(html.contains(QStringLiteral(
        "<li>nominated node plugin-node-0, evicting default/train-plugin (priority 1000)</li>")))
        << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("<li>second &lt;line&gt;</li>"))) << html.toStdString();
    EXPECT_TRUE(html.contains(
        QStringLiteral("Preemption here: would evict default/train-plugin (priority 1000)</p>")))
        << html.toStdString();
    // Only the node that has a line says anything about preemption.
    EXPECT_EQ(html.count(QStringLiteral("Preemption here:")), 1);

    // A pod no lower-priority pod stands before says nothing of preemption.
    d.preemption.clear();
    d.nodes = { quiet };
    EXPECT_FALSE(ui::diagnosisInWords(d).contains(QStringLiteral("reemption")));
}
