// SPDX-License-Identifier: Apache-2.0
#include "ui/models/replay_pods_model.h"

#include <map>

#include <QBrush>

#include "ui/models/core_text.h"
#include "ui/models/pod_group_text.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

ReplayPodsModel::ReplayPodsModel(QObject* parent)
    : TwoLevelModel(parent)
{ }

ReplayPodsModel::Row ReplayPodsModel::podRow(
    const ReplayState& state, const std::string& pod, const std::map<std::string, QStringList>& claims)
{
    Row row;
    row.key = text(pod);
    if (const auto running = state.running.find(pod); running != state.running.end()) {
        row.node = text(running->second);
        if (const auto held = claims.find(pod); held != claims.end())
            row.claims = held->second;
        if (auto victim = state.preempted.find(pod); victim != state.preempted.end()) {
            row.preempted = true;
            row.message = text(victim->second);
        }
    } else if (const auto pending = state.pending.find(pod); pending != state.pending.end()) {
        row.message = text(pending->second);
        row.pending = true;
    }
    if (const auto group = state.podGroups.find(pod); group != state.podGroups.end())
        if (placedAsUnit(state.groups.at(group->second)))
            row.group = text(group->second);
    return row;
}

void ReplayPodsModel::setState(const ReplayState& state)
{
    // The claims each running pod holds devices through, in device order.
    std::map<std::string, QStringList> claims;
    for (const auto& [device, holder] : state.holders) {
        QStringList& list = claims[holder.pod];
        const QString claim = text(holder.claim);
        if (!claim.isEmpty() && !list.contains(claim))
            list << claim;
    }
    beginResetModel();
    m_rows.clear();
    m_groups = 0;
    // Pods and groups by key: a group's row sorts by its name among the pods.
    std::map<std::string, Row> top;
    for (const auto* pods : { &state.running, &state.pending })
        for (const auto& [pod, unused] : *pods)
            if (const auto group = state.podGroups.find(pod);
                group == state.podGroups.end() || !placedAsUnit(state.groups.at(group->second)))
                top.emplace(pod, podRow(state, pod, claims));
    for (const auto& [key, group] : state.groups) {
        if (!placedAsUnit(group))
            continue;
        const GroupTally tally = tallyOf(group, state);
        Row row;
        row.key = text(key);
        row.group = row.key;
        row.isGroup = true;
        const GroupPhase phase = phaseOf(group, tally);
        row.status = phaseText(phase);
        row.settled = phase == GroupPhase::Scheduled;
        row.pending = false; // its members are the pods that wait
        row.minCount = group.minCount;
        row.bound = tally.bound;
        if (tally.bound > 0) {
            row.domain = text(group.domain);
            row.node = domainValue(group.domain);
        }
        row.message = groupSummary(group, tally);
        for (const auto& pod : group.members) {
            row.members.push_back(podRow(state, pod, claims));
            if (row.firstPending.isEmpty() && row.members.back().pending)
                row.firstPending = row.members.back().key;
        }
        top.emplace(key, std::move(row));
        ++m_groups;
    }
    m_rows.reserve(top.size());
    for (auto& [key, row] : top)
        m_rows.push_back(std::move(row));
    m_pending = int(state.pending.size());
    endResetModel();
}

void ReplayPodsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_pending = 0;
    m_groups = 0;
    endResetModel();
}

const ReplayPodsModel::Row* ReplayPodsModel::rowAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return nullptr;
    if (index.internalId() == 0)
        return size_t(index.row()) < m_rows.size() ? &m_rows[size_t(index.row())] : nullptr;
    const size_t group = size_t(topRowOf(index));
    if (group >= m_rows.size() || size_t(index.row()) >= m_rows[group].members.size())
        return nullptr;
    return &m_rows[group].members[size_t(index.row())];
}

int ReplayPodsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_rows.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0; // members have no children
    const Row* row = rowAt(parent);
    return row ? int(row->members.size()) : 0;
}

int ReplayPodsModel::columnCount(const QModelIndex& /*parent*/) const
{
    return PodsModel::ColumnCount;
}

QVariant ReplayPodsModel::groupData(const Row& row, int column, int role) const
{
    switch (role) {
    case PodsModel::GroupKeyRole:
        return row.key;
    case PodsModel::IsGroupRole:
        return true;
    case PodsModel::MinCountRole:
        return row.minCount;
    case PodsModel::BoundRole:
        return row.bound;
    case PodsModel::MembersRole:
        return int(row.members.size());
    case PodsModel::DomainRole:
        return row.domain;
    case PodsModel::ExplainKeyRole:
        return row.firstPending;
    case PodsModel::PodKeyRole:
        return QString();
    case PodsModel::PendingRole:
    case PodsModel::PreemptedRole:
        return false;
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return groupRowLook(role, column == PodsModel::StatusColumn, row.settled);
    case Qt::ToolTipRole:
        if (column == PodsModel::NodeColumn && !row.domain.isEmpty())
            return tr("Placement domain %1").arg(row.domain);
        if (column == PodsModel::NameColumn)
            return tr("PodGroup %1: its members are the rows under it").arg(row.key);
        break;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const qsizetype slash = row.key.indexOf(QLatin1Char('/'));
    switch (column) {
    case PodsModel::NamespaceColumn:
        return slash < 0 ? QString() : row.key.left(slash);
    case PodsModel::NameColumn:
        return row.key.mid(slash + 1);
    case PodsModel::StatusColumn:
        return row.status;
    case PodsModel::NodeColumn:
        return row.node;
    case PodsModel::MessageColumn:
        return row.message;
    }
    return QString();
}

QVariant ReplayPodsModel::data(const QModelIndex& index, int role) const
{
    const Row* found = rowAt(index);
    if (!found)
        return {};
    const Row& row = *found;
    if (row.isGroup)
        return groupData(row, index.column(), role);
    if (role == PodsModel::PodKeyRole || role == PodsModel::ExplainKeyRole)
        return row.key;
    if (role == PodsModel::GroupKeyRole)
        return row.group;
    if (role == PodsModel::IsGroupRole)
        return false;
    if (role == PodsModel::PendingRole)
        return row.pending;
    if (role == PodsModel::PreemptedRole)
        return row.preempted;
    // Pending pods and preemption victims stand out as in the Timeline's events.
    if (role == Qt::ForegroundRole)
        return (row.pending || row.preempted) && index.column() == PodsModel::StatusColumn
            ? QVariant(QBrush(toneColor(Tone::Warning)))
            : QVariant();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const qsizetype slash = row.key.indexOf(QLatin1Char('/'));
    switch (index.column()) {
    case PodsModel::NamespaceColumn:
        return slash < 0 ? QString() : row.key.left(slash);
    case PodsModel::NameColumn:
        return row.key.mid(slash + 1);
    case PodsModel::StatusColumn:
        return row.pending ? tr("Pending") : row.preempted ? tr("Preempted") : tr("Running");
    case PodsModel::NodeColumn:
        return row.node;
    case PodsModel::ClaimsColumn:
        return row.claims.join(QStringLiteral(", "));
    case PodsModel::MessageColumn:
        return row.message;
    }
    return {};
}

QVariant ReplayPodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == PodsModel::MessageColumn)
        return tr("What the scheduler said of the pod the last time it tried it");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PodsModel::NamespaceColumn:
        return tr("Namespace");
    case PodsModel::NameColumn:
        return tr("Pod");
    case PodsModel::StatusColumn:
        return tr("Status");
    case PodsModel::NodeColumn:
        return tr("Node");
    case PodsModel::ClaimsColumn:
        return tr("Claims");
    case PodsModel::MessageColumn:
        return tr("Last message"); // short: the column takes what room is left, often little
    }
    return {};
}

QString emptyRunText(const ReplayState& state)
{
    if (!state.running.empty() || !state.pending.empty())
        return {};
    QStringList ended;
    if (state.succeeded > 0)
        ended << ReplayPodsModel::tr("%1 pods succeeded").arg(countText(state.succeeded));
    if (state.failed > 0)
        ended << ReplayPodsModel::tr("%1 failed").arg(countText(state.failed));
    if (state.evicted > 0)
        ended << ReplayPodsModel::tr("%1 evicted").arg(countText(state.evicted));
    if (ended.isEmpty())
        return ReplayPodsModel::tr("No pod has arrived yet at %1.").arg(formatSimTime(state.time));
    return ReplayPodsModel::tr("%1; none running or pending at %2.")
        .arg(ended.join(QStringLiteral(", ")), formatSimTime(state.time));
}

QString replayedPodInWords(const PodReplay& replay, const ReplayState& state, const std::string& pod)
{
    auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    sim::SimTime created = -1;
    sim::SimTime lastTurnedAway = -1;
    int turnedAway = 0;
    std::string workload;
    const auto& events = replay.events();
    for (size_t i = 0; i < replay.eventsUpTo(state.time); ++i) {
        const ReplayEvent& e = events[i];
        if (e.pod != pod)
            continue;
        if (e.type == sim::PodEventType::Created) {
            created = e.time;
            workload = e.workload;
        } else if (e.type == sim::PodEventType::Unschedulable) {
            ++turnedAway;
            lastTurnedAway = e.time;
        }
    }
    const QString at = formatSimTime(state.time);
    if (const auto running = state.running.find(pod); running != state.running.end()) {
        QString html = QObject::tr("<h3>Pod %1 at %2</h3><p>Running on node <b>%3</b>.</p>")
                           .arg(esc(pod), at, esc(running->second));
        // A victim keeps its node and devices through its grace period, then is evicted.
        if (const auto victim = state.preempted.find(pod); victim != state.preempted.end())
            html += QObject::tr("<p>Chosen as a preemption victim: <i>%1</i>. It is evicted when its grace "
                                "period is over.</p>")
                        .arg(esc(victim->second));
        return html;
    }
    const auto pending = state.pending.find(pod);
    if (pending == state.pending.end())
        return QObject::tr("<h3>Pod %1 at %2</h3><p>Not in the cluster at this time.</p>").arg(esc(pod), at);
    QString html = QObject::tr("<h3>Pod %1 is pending at %2</h3>").arg(esc(pod), at);
    if (created >= 0)
        html += QObject::tr("<p>Created at %1 by workload <b>%2</b>.</p>")
                    .arg(formatSimTime(created), esc(workload));
    if (turnedAway == 0)
        return html + QObject::tr("<p>The scheduler has not tried it yet (it waits in the queue).</p>");
    return html
        + QObject::tr("<p>The scheduler turned it away %1; the last time, at %2, it said: <i>%3</i></p>")
              .arg(turnedAway == 1 ? QObject::tr("once") : QObject::tr("%1 times").arg(countText(turnedAway)),
                  formatSimTime(lastTurnedAway), esc(pending->second));
}

} // namespace drasim::ui
