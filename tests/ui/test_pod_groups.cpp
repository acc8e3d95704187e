// SPDX-License-Identifier: Apache-2.0
// A run's PodGroups as the Pods tab shows them: one row per group with its members under it (its
// state, minCount, members bound of total, its placement domain), the member rows as any pod's,
// filters and sorting through a QSortFilterProxyModel, and the explanation pane's words for a
// group (the recorded facts, then core's account of the group).
#include <memory>
#include <string>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

#include "core/scheduler/diagnosis.h"
#include "tests/ui/replay_event.h"
#include "ui/models/diagnosis_text.h"
#include "ui/models/pod_group_text.h"
#include "ui/models/pod_replay.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_pods_model.h"

using namespace drasim;
using ui::PodsModel;
using Type = sim::PodEventType;

// Named, so that a unity build does not meet other replay tests' helpers of the same names.
namespace pod_groups_test {

using drasim::testing::replayEvent;

ui::ReplayEvent member(sim::SimTime t, const std::string& pod, const std::string& group, int minCount,
    const std::string& topologyKey = "topology.kubernetes.io/rack")
{
    ui::ReplayEvent e = replayEvent(t, Type::Created, pod);
    auto facts = std::make_shared<sim::PodEventGroup>();
    facts->key = group;
    facts->minCount = minCount;
    facts->topologyKey = topologyKey;
    e.group = std::move(facts);
    return e;
}

ui::ReplayEvent boundInDomain(sim::SimTime t, const std::string& pod, const std::string& node)
{
    ui::ReplayEvent e = replayEvent(t, Type::Scheduled, pod, node);
    auto facts = std::make_shared<sim::PodEventGroup>();
    facts->key = "default/train";
    facts->minCount = 3;
    facts->topologyKey = "topology.kubernetes.io/rack";
    facts->domain = "topology.kubernetes.io/rack=rack-a";
    e.group = std::move(facts);
    return e;
}

/// default/train: a gang of minCount 3 whose third member arrives at 20; both racks too small
/// until 30, when all three bind in rack-a; at 50 one member is preempted, at 60 evicted, at 70 a
/// replacement is pending. default/solo is a pod of no group, pending throughout.
ui::PodReplay gangRun()
{
    ui::PodReplay r;
    r.append(replayEvent(0, Type::Created, "default/solo"));
    r.append(replayEvent(0, Type::Unschedulable, "default/solo", {}, "0/4 nodes are available"));
    r.append(member(10, "default/train-0", "default/train", 3));
    r.append(member(10, "default/train-1", "default/train", 3));
    r.append(member(20, "default/train-2", "default/train", 3));
    const std::string cycle
        = "pod group default/train: no topology.kubernetes.io/rack domain holds minCount (3) pods";
    for (const char* pod : { "default/train-0", "default/train-1", "default/train-2" })
        r.append(replayEvent(20, Type::Unschedulable, pod, {}, cycle));
    r.append(boundInDomain(30, "default/train-0", "n0"));
    r.append(boundInDomain(30, "default/train-1", "n0"));
    r.append(boundInDomain(30, "default/train-2", "n1"));
    r.append(
        replayEvent(50, Type::Preempted, "default/train-2", "n1", "preempted by pod group default/prod"));
    r.append(replayEvent(60, Type::Evicted, "default/train-2", "n1"));
    r.append(member(70, "default/train-3", "default/train", 3));
    return r;
}

QModelIndex topRow(const QAbstractItemModel& model, const QString& name)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, PodsModel::NameColumn).data().toString() == name)
            return model.index(row, 0);
    return {};
}

QString cell(const QAbstractItemModel& model, const QModelIndex& row, int column)
{
    return model.index(row.row(), column, row.parent()).data().toString();
}

} // namespace pod_groups_test

using namespace pod_groups_test;

TEST(PodGroups, TheReplayKeepsEachGroupsLiveMembersPolicyAndDomain)
{
    const ui::PodReplay replay = gangRun();
    const ui::ReplayState early = replay.stateAt(15);
    ASSERT_EQ(early.groups.size(), 1u);
    const ui::ReplayGroup& g = early.groups.at("default/train");
    EXPECT_EQ(g.minCount, 3);
    EXPECT_EQ(g.topologyKey, "topology.kubernetes.io/rack");
    EXPECT_EQ(g.members, (std::vector<std::string> { "default/train-0", "default/train-1" }));
    EXPECT_TRUE(g.domain.empty());
    EXPECT_EQ(early.podGroups.count("default/solo"), 0u);

    const ui::ReplayState bound = replay.stateAt(40);
    EXPECT_EQ(bound.groups.at("default/train").domain, "topology.kubernetes.io/rack=rack-a");
    // An evicted member leaves its group; a new one joins at the end.
    const ui::ReplayState later = replay.stateAt(70);
    EXPECT_EQ(later.groups.at("default/train").members,
        (std::vector<std::string> { "default/train-0", "default/train-1", "default/train-3" }));
    EXPECT_EQ(later.podGroups.count("default/train-2"), 0u);
}

TEST(PodGroups, AGroupsStateFollowsItsMembers)
{
    const ui::PodReplay replay = gangRun();
    auto phaseAt = [&replay](sim::SimTime t) {
        const ui::ReplayState s = replay.stateAt(t);
        const ui::ReplayGroup& g = s.groups.at("default/train");
        return ui::phaseOf(g, ui::tallyOf(g, s));
    };
    EXPECT_EQ(phaseAt(15), ui::GroupPhase::WaitingForMembers); // 2 of minCount 3 exist
    EXPECT_EQ(phaseAt(25), ui::GroupPhase::Pending); // 3 exist, no rack holds them
    EXPECT_EQ(phaseAt(40), ui::GroupPhase::Scheduled);
    EXPECT_EQ(phaseAt(55), ui::GroupPhase::Preempted);
    EXPECT_EQ(phaseAt(70), ui::GroupPhase::PartlyBound); // two bound, the replacement pending

    const ui::ReplayState s = replay.stateAt(70);
    const ui::GroupTally t = ui::tallyOf(s.groups.at("default/train"), s);
    EXPECT_EQ(t.members, 3);
    EXPECT_EQ(t.bound, 2);
    EXPECT_EQ(t.pending, 1);
    EXPECT_EQ(
        ui::groupSummary(s.groups.at("default/train"), t), QStringLiteral("gang, minCount 3 · 2 of 3 bound"));
    ui::ReplayGroup basic;
    EXPECT_EQ(ui::groupSummary(basic, ui::GroupTally { 4, 3, 1, 0 }), QStringLiteral("basic · 3 of 4 bound"));
    EXPECT_EQ(ui::phaseOf(basic, ui::GroupTally { 1, 0, 1, 0 }), ui::GroupPhase::Pending);
}

TEST(PodGroups, AGroupIsOneRowWithItsMembersUnderIt)
{
    const ui::PodReplay replay = gangRun();
    ui::ReplayPodsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setState(replay.stateAt(40));
    EXPECT_EQ(model.groupCount(), 1);
    ASSERT_EQ(model.rowCount(), 2); // default/solo and the group, by name
    const QModelIndex group = topRow(model, QStringLiteral("train"));
    ASSERT_TRUE(group.isValid());
    EXPECT_TRUE(group.data(PodsModel::IsGroupRole).toBool());
    EXPECT_EQ(group.data(PodsModel::GroupKeyRole).toString(), QStringLiteral("default/train"));
    EXPECT_EQ(group.data(PodsModel::MinCountRole).toInt(), 3);
    EXPECT_EQ(group.data(PodsModel::BoundRole).toInt(), 3);
    EXPECT_EQ(group.data(PodsModel::MembersRole).toInt(), 3);
    EXPECT_EQ(
        group.data(PodsModel::DomainRole).toString(), QStringLiteral("topology.kubernetes.io/rack=rack-a"));
    EXPECT_TRUE(group.data(PodsModel::PodKeyRole).toString().isEmpty());
    EXPECT_EQ(cell(model, group, PodsModel::NamespaceColumn), QStringLiteral("default"));
    EXPECT_EQ(cell(model, group, PodsModel::StatusColumn), QStringLiteral("Scheduled"));
    EXPECT_EQ(cell(model, group, PodsModel::NodeColumn), QStringLiteral("rack-a"));
    EXPECT_EQ(
        cell(model, group, PodsModel::MessageColumn), QStringLiteral("gang, minCount 3 · 3 of 3 bound"));
    EXPECT_EQ(model.index(group.row(), PodsModel::NodeColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("Placement domain topology.kubernetes.io/rack=rack-a"));

    // Its members in creation order, each the row a pod of no group would be.
    ASSERT_EQ(model.rowCount(group), 3);
    const QModelIndex first = model.index(0, 0, group);
    EXPECT_EQ(model.parent(first), group);
    EXPECT_EQ(first.data(PodsModel::PodKeyRole).toString(), QStringLiteral("default/train-0"));
    EXPECT_EQ(first.data(PodsModel::GroupKeyRole).toString(), QStringLiteral("default/train"));
    EXPECT_EQ(cell(model, first, PodsModel::StatusColumn), QStringLiteral("Running"));
    EXPECT_EQ(cell(model, first, PodsModel::NodeColumn), QStringLiteral("n0"));
    EXPECT_EQ(model.rowCount(first), 0);
    const QModelIndex solo = topRow(model, QStringLiteral("solo"));
    EXPECT_FALSE(solo.data(PodsModel::IsGroupRole).toBool());
    EXPECT_TRUE(solo.data(PodsModel::GroupKeyRole).toString().isEmpty());
    EXPECT_EQ(cell(model, solo, PodsModel::StatusColumn), QStringLiteral("Pending"));
    EXPECT_EQ(cell(model, solo, PodsModel::MessageColumn), QStringLiteral("0/4 nodes are available"));
    EXPECT_EQ(model.pendingCount(), 1);

    // Waiting for its third member: no domain, the warning tone, the first pending member answers.
    model.setState(replay.stateAt(15));
    const QModelIndex waiting = topRow(model, QStringLiteral("train"));
    EXPECT_EQ(cell(model, waiting, PodsModel::StatusColumn), QStringLiteral("Waiting for members"));
    EXPECT_TRUE(cell(model, waiting, PodsModel::NodeColumn).isEmpty());
    EXPECT_EQ(waiting.data(PodsModel::ExplainKeyRole).toString(), QStringLiteral("default/train-0"));
    EXPECT_TRUE(
        model.index(waiting.row(), PodsModel::StatusColumn).data(Qt::ForegroundRole).canConvert<QBrush>());
    // Preempted, every member still bound: it stands out too; scheduled, it does not.
    model.setState(replay.stateAt(55));
    const QModelIndex preempted = topRow(model, QStringLiteral("train"));
    EXPECT_EQ(cell(model, preempted, PodsModel::StatusColumn), QStringLiteral("Preempted"));
    EXPECT_TRUE(
        model.index(preempted.row(), PodsModel::StatusColumn).data(Qt::ForegroundRole).canConvert<QBrush>());
    model.setState(replay.stateAt(40));
    EXPECT_FALSE(model.index(topRow(model, QStringLiteral("train")).row(), PodsModel::StatusColumn)
                     .data(Qt::ForegroundRole)
                     .isValid());
}

TEST(PodGroups, FiltersKeepAGroupWithItsMatchingMembersAndSortingKeepsMembersUnderTheirGroup)
{
    const ui::PodReplay replay = gangRun();
    ui::ReplayPodsModel model;
    model.setState(replay.stateAt(70));
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterKeyColumn(-1);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive); // as the Pods tab filters
    proxy.setRecursiveFilteringEnabled(true);
    proxy.setAutoAcceptChildRows(true);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // A member's name: its group's row stays, with that member only.
    proxy.setFilterFixedString(QStringLiteral("train-3"));
    ASSERT_EQ(proxy.rowCount(), 1);
    QModelIndex group = proxy.index(0, 0);
    EXPECT_TRUE(group.data(PodsModel::IsGroupRole).toBool());
    ASSERT_EQ(proxy.rowCount(group), 1);
    EXPECT_EQ(
        proxy.index(0, 0, group).data(PodsModel::PodKeyRole).toString(), QStringLiteral("default/train-3"));
    // The group's state: the group with every member.
    proxy.setFilterFixedString(QStringLiteral("partly bound"));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.rowCount(proxy.index(0, 0)), 3);
    // A status both a member and a pod of no group have: both, the member under its group.
    proxy.setFilterFixedString(QStringLiteral("pending"));
    EXPECT_EQ(proxy.rowCount(), 2);

    proxy.setFilterFixedString(QString());
    proxy.sort(PodsModel::StatusColumn, Qt::DescendingOrder);
    group = topRow(proxy, QStringLiteral("train"));
    ASSERT_TRUE(group.isValid());
    ASSERT_EQ(proxy.rowCount(group), 3);
    // Members sorted among themselves: Running before Pending, descending.
    EXPECT_EQ(cell(proxy, proxy.index(0, 0, group), PodsModel::StatusColumn), QStringLiteral("Running"));
    EXPECT_EQ(cell(proxy, proxy.index(2, 0, group), PodsModel::StatusColumn), QStringLiteral("Pending"));
    EXPECT_EQ(
        proxy.index(2, 0, group).data(PodsModel::GroupKeyRole).toString(), QStringLiteral("default/train"));
}

TEST(PodGroups, TheExplanationOfAGroupGivesItsStateMembersAndDomain)
{
    const ui::PodReplay replay = gangRun();
    const ui::ReplayState waiting = replay.stateAt(15);
    QString words = ui::replayedGroupInWords(waiting.groups.at("default/train"), waiting);
    EXPECT_TRUE(words.contains(QStringLiteral("waiting for members"))) << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral("2 of minCount 3 pods exist"))) << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral("must share one <tt>topology.kubernetes.io/rack</tt> domain")))
        << words.toStdString();

    const ui::ReplayState bound = replay.stateAt(55);
    words = ui::replayedGroupInWords(bound.groups.at("default/train"), bound);
    EXPECT_TRUE(words.contains(QStringLiteral("preempted"))) << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral("3 of its 3 members bound, 0 pending"))) << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral("domain: <b>rack-a</b>"))) << words.toStdString();
    EXPECT_TRUE(words.contains(
        QStringLiteral("default/train-2: still on n1, <i>preempted by pod group default/prod</i>")))
        << words.toStdString();
    const QString line = ui::memberOfGroupInWords(bound.groups.at("default/train"), bound);
    EXPECT_EQ(line,
        QStringLiteral(
            "<p>Member of pod group <b>default/train</b> (gang, minCount 3 · 3 of 3 bound): preempted.</p>"));
}

TEST(PodGroups, APendingMembersDiagnosisLeadsWithCoresGroupLine)
{
    scheduler::PodDiagnosis d;
    d.pod = "default/train-0";
    d.scheduled = true; // on its own it fits
    d.nodeName = "h100-1";
    d.group = "pod group default/train (gang, minCount 2, topology topology.kubernetes.io/rack): last group "
              "cycle: 0/2 placements are feasible";
    const QString words = ui::diagnosisInWords(d);
    EXPECT_TRUE(words.contains(QStringLiteral("is pending with its pod group"))) << words.toStdString();
    EXPECT_FALSE(words.contains(QStringLiteral("can be scheduled"))) << words.toStdString();
    EXPECT_TRUE(words.contains(
        QStringLiteral("The group decides first: <i>pod group default/train (gang, minCount 2")))
        << words.toStdString();
    EXPECT_TRUE(words.contains(QStringLiteral("On its own the pod would fit, on node <b>h100-1</b>")))
        << words.toStdString();

    const QString group = ui::groupDiagnosisInWords(d);
    EXPECT_TRUE(group.contains(QStringLiteral("pending member default/train-0"))) << group.toStdString();
    EXPECT_TRUE(group.contains(QStringLiteral("0/2 placements are feasible"))) << group.toStdString();
    scheduler::PodDiagnosis plain;
    plain.pod = "default/solo";
    EXPECT_TRUE(ui::groupDiagnosisInWords(plain).isEmpty());
}

TEST(PodGroups, ABasicGroupWithoutATopologyKeyListsItsMembersAsPlainPods)
{
    // The basic PodGroup a 1.37 Job controller gives every Job places its pods one by one.
    ui::PodReplay replay;
    replay.append(member(0, "default/finetune-0", "default/finetune", 0, ""));
    replay.append(replayEvent(5, Type::Scheduled, "default/finetune-0", "n0"));
    ui::ReplayPodsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setState(replay.stateAt(10));
    EXPECT_EQ(model.groupCount(), 0);
    ASSERT_EQ(model.rowCount(), 1);
    const QModelIndex pod = model.index(0, 0);
    EXPECT_FALSE(pod.data(PodsModel::IsGroupRole).toBool());
    EXPECT_TRUE(pod.data(PodsModel::GroupKeyRole).toString().isEmpty());
    EXPECT_EQ(pod.data(PodsModel::PodKeyRole).toString(), QStringLiteral("default/finetune-0"));
    EXPECT_EQ(cell(model, pod, PodsModel::StatusColumn), QStringLiteral("Running"));

    // A basic group kept in one rack is placed as a unit: a row of its own.
    replay.append(member(20, "default/spread-0", "default/spread", 0));
    model.setState(replay.stateAt(20));
    EXPECT_EQ(model.groupCount(), 1);
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_TRUE(ui::placedAsUnit(replay.stateAt(20).groups.at("default/spread")));
    EXPECT_FALSE(ui::placedAsUnit(replay.stateAt(20).groups.at("default/finetune")));
}

TEST(PodGroups, AManifestPodsLongMessageIsWholeInItsTooltip)
{
    // The tree the Pods tab shows has rows of one line: a long message is elided in its cell.
    api::Pod pod;
    pod.meta.name = "finetune-7b";
    pod.conditions.push_back({ "PodScheduled", "False", "Unschedulable",
        "0/2 nodes are available: 1 Insufficient cpu, 1 cannot allocate all claims." });
    PodsModel model;
    model.setPods({ pod });
    EXPECT_EQ(model.index(0, PodsModel::MessageColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("0/2 nodes are available: 1 Insufficient cpu, 1 cannot allocate all claims."));
    EXPECT_FALSE(model.index(0, PodsModel::NameColumn).data(Qt::ToolTipRole).isValid());
}
