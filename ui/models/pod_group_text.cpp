// SPDX-License-Identifier: Apache-2.0
#include "ui/models/pod_group_text.h"

#include <QCoreApplication>
#include <QStringList>

#include "ui/models/core_text.h"
#include "ui/models/time_text.h"

namespace drasim::ui {

namespace {

QString groupTr(const char* text, int n = -1)
{
    return QCoreApplication::translate("PodGroup", text, nullptr, n);
}

QString escaped(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

} // namespace

bool placedAsUnit(const ReplayGroup& group)
{
    return group.minCount > 0 || !group.topologyKey.empty();
}

GroupTally tallyOf(const ReplayGroup& group, const ReplayState& state)
{
    GroupTally t;
    for (const auto& pod : group.members) {
        ++t.members;
        if (state.running.count(pod) > 0) {
            ++t.bound;
            t.preempted += state.preempted.count(pod) > 0 ? 1 : 0;
        } else if (state.pending.count(pod) > 0) {
            ++t.pending;
        }
    }
    return t;
}

GroupPhase phaseOf(const ReplayGroup& group, const GroupTally& tally)
{
    if (tally.preempted > 0)
        return GroupPhase::Preempted;
    if (tally.bound == 0)
        // The gang plugin's PreEnqueue holds a gang back until minCount members exist.
        return group.minCount > 0 && tally.members < group.minCount ? GroupPhase::WaitingForMembers
                                                                    : GroupPhase::Pending;
    return tally.pending > 0 ? GroupPhase::PartlyBound : GroupPhase::Scheduled;
}

QString phaseText(GroupPhase phase)
{
    switch (phase) {
    case GroupPhase::WaitingForMembers:
        return groupTr("Waiting for members");
    case GroupPhase::Pending:
        return groupTr("Pending");
    case GroupPhase::PartlyBound:
        return groupTr("Partly bound");
    case GroupPhase::Scheduled:
        return groupTr("Scheduled");
    case GroupPhase::Preempted:
        return groupTr("Preempted");
    }
    return {};
}

QString groupSummary(const ReplayGroup& group, const GroupTally& tally)
{
    const QString policy
        = group.minCount > 0 ? groupTr("gang, minCount %1").arg(group.minCount) : groupTr("basic");
    return groupTr("%1 · %2 of %3 bound").arg(policy).arg(tally.bound).arg(tally.members);
}

QString domainValue(const std::string& domain)
{
    const auto eq = domain.find('=');
    return QString::fromStdString(eq == std::string::npos ? domain : domain.substr(eq + 1));
}

QString memberOfGroupInWords(const ReplayGroup& group, const ReplayState& state)
{
    const GroupTally tally = tallyOf(group, state);
    return groupTr("<p>Member of pod group <b>%1</b> (%2): %3.</p>")
        .arg(escaped(group.key), groupSummary(group, tally).toHtmlEscaped(),
            phaseText(phaseOf(group, tally)).toLower());
}

namespace {

/// What replayedGroupInWords and allocatedGroupInWords say after their heading.
QString groupBodyInWords(
    const ReplayGroup& group, const ReplayState& state, const GroupTally& tally, GroupPhase phase)
{
    QString html = group.minCount > 0
        ? groupTr(
            "<p>A gang: no member runs until at least <b>minCount %1</b> of them can be placed together.</p>")
              .arg(group.minCount)
        : groupTr(
            "<p>A basic group: its members are placed together where they fit, any number at a time.</p>");
    if (phase == GroupPhase::WaitingForMembers)
        html += groupTr("<p>%1 of minCount %2 pods exist: the scheduler does not try the group until "
                        "minCount members are in its queue.</p>")
                    .arg(tally.members)
                    .arg(group.minCount);
    html += groupTr("<p>%1 of its %2 bound, %3 pending.</p>")
                .arg(tally.bound)
                .arg(countOf(tally.members, groupTr("member"), groupTr("members")))
                .arg(tally.pending);
    if (!group.topologyKey.empty())
        html += tally.bound > 0 && !group.domain.empty()
            ? groupTr("<p>Placed in one <tt>%1</tt> domain: <b>%2</b> (outlined on the Topology tab).</p>")
                  .arg(escaped(group.topologyKey), domainValue(group.domain).toHtmlEscaped())
            : groupTr("<p>Its members must share one <tt>%1</tt> domain.</p>")
                  .arg(escaped(group.topologyKey));
    html += QStringLiteral("<ul>");
    for (const auto& pod : group.members) {
        QString where = groupTr("pending");
        if (const auto running = state.running.find(pod); running != state.running.end()) {
            const auto victim = state.preempted.find(pod);
            where = victim == state.preempted.end()
                ? groupTr("on %1").arg(escaped(running->second))
                : groupTr("still on %1, <i>%2</i>").arg(escaped(running->second), escaped(victim->second));
        }
        html += QStringLiteral("<li>%1: %2</li>").arg(escaped(pod), where);
    }
    return html + QStringLiteral("</ul>");
}

} // namespace

QString replayedGroupInWords(const ReplayGroup& group, const ReplayState& state)
{
    const GroupTally tally = tallyOf(group, state);
    const GroupPhase phase = phaseOf(group, tally);
    return groupTr("<h3>Pod group %1 at %2: %3</h3>")
               .arg(escaped(group.key), formatSimTime(state.time), phaseText(phase).toLower())
        + groupBodyInWords(group, state, tally, phase);
}

QString allocatedGroupInWords(const ReplayGroup& group, const ReplayState& state)
{
    const GroupTally tally = tallyOf(group, state);
    const GroupPhase phase = phaseOf(group, tally);
    return groupTr("<h3>Pod group %1 after scheduling: %2</h3>")
               .arg(escaped(group.key), phaseText(phase).toLower())
        + groupBodyInWords(group, state, tally, phase);
}

} // namespace drasim::ui
