// SPDX-License-Identifier: Apache-2.0
// A PodGroup of a replayed run in the desktop's words: how many of its members are bound, the
// state that makes of it (waiting for members, pending, partly bound, scheduled, preempted) and
// its placement domain. Every fact comes from the run's recorded events (ReplayState); the
// scheduler's own account of a group is core's (PodDiagnosis::group), shown beside these words.
#pragma once

#include <QString>

#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// Whether the Pods tab gives the group a row of its own: a gang, or a group a topology key keeps
/// in one domain. A basic group without one (the PodGroup a 1.37 Job controller gives every Job)
/// places its members as if they were on their own; they are listed as plain pods.
bool placedAsUnit(const ReplayGroup& group);

/// A group's members at one time, from the replay.
struct GroupTally
{
    int members = 0; ///< running or pending
    int bound = 0; ///< running (preemption victims included, until evicted)
    int pending = 0;
    int preempted = 0; ///< running out their grace period as preemption victims
};
GroupTally tallyOf(const ReplayGroup& group, const ReplayState& state);

enum class GroupPhase {
    WaitingForMembers, ///< a gang with fewer than minCount members in the cluster, none bound
    Pending, ///< members enough (or a basic group), none bound
    PartlyBound, ///< some members bound, others pending
    Scheduled, ///< every member bound
    Preempted, ///< a member is a preemption victim
};
GroupPhase phaseOf(const ReplayGroup& group, const GroupTally& tally);
/// "Waiting for members", "Pending", "Partly bound", "Scheduled", "Preempted".
QString phaseText(GroupPhase phase);

/// "gang, minCount 4 · 1 of 3 bound" (a basic group: "basic · 3 of 4 bound").
QString groupSummary(const ReplayGroup& group, const GroupTally& tally);
/// The value of a "key=value" domain ("rack-a"); "" for "".
QString domainValue(const std::string& domain);

/// One line for a member's account: "Member of pod group default/train (gang, minCount 2 · 1 of
/// 2 bound): partly bound." Rich text (HTML).
QString memberOfGroupInWords(const ReplayGroup& group, const ReplayState& state);

/// What the recorded events say about a PodGroup at the state's time, for the explanation pane:
/// its policy, state, members and placement domain. Rich text (HTML).
QString replayedGroupInWords(const ReplayGroup& group, const ReplayState& state);

/// The same account of a PodGroup after the one-shot scheduling of manifests (`state` from
/// PodsModel::groupState()), without a time. Rich text (HTML).
QString allocatedGroupInWords(const ReplayGroup& group, const ReplayState& state);

} // namespace drasim::ui
