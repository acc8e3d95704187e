// SPDX-License-Identifier: Apache-2.0
#include "ui/models/pods_model.h"

#include <map>

#include <QBrush>

#include "core/api/object_key.h"
#include "ui/models/allocated_groups.h"
#include "ui/models/allocated_state.h"
#include "ui/models/pod_group_text.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

namespace {

const api::PodCondition* unschedulable(const api::Pod& pod)
{
    for (const auto& c : pod.conditions)
        if (c.type == "PodScheduled" && c.status == "False")
            return &c;
    return nullptr;
}

/// The condition the scheduler sets on a pod it preempts (kubernetes
/// pkg/scheduler/framework/preemption: DisruptionTarget, reason PreemptionByScheduler).
const api::PodCondition* preemptedBy(const api::Pod& pod)
{
    for (const auto& c : pod.conditions)
        if (c.type == "DisruptionTarget" && c.status == "True")
            return &c;
    return nullptr;
}

/// What the group's last cycle said when it placed nothing ("minCount (3) cannot be satisfied:
/// ..."), from the PodGroupScheduled (1.36) or PodGroupInitiallyScheduled (1.37) condition.
std::string cycleMessage(const api::PodGroup& group)
{
    for (const auto& c : group.conditions)
        if ((c.type == "PodGroupScheduled" || c.type == "PodGroupInitiallyScheduled") && c.status == "False")
            return c.message;
    return {};
}

} // namespace

PodsModel::PodsModel(QObject* parent)
    : TwoLevelModel(parent)
{ }

void PodsModel::setPods(
    std::vector<api::Pod> pods, std::vector<api::PodGroup> groups, const std::vector<api::Node>& nodes)
{
    beginResetModel();
    m_pods = std::move(pods);
    m_state = allocatedState(m_pods, {});
    addAllocatedGroups(m_state, m_pods, groups, nodes);
    buildRows(groups);
    endResetModel();
}

void PodsModel::buildRows(const std::vector<api::PodGroup>& groups)
{
    m_rows.clear();
    m_groupCount = 0;
    std::map<std::string, size_t> groupRow; // group key → its row
    for (size_t i = 0; i < m_pods.size(); ++i) {
        const std::string key = api::objectKey(m_pods[i].meta);
        const auto member = m_state.podGroups.find(key);
        if (member == m_state.podGroups.end() || !placedAsUnit(m_state.groups.at(member->second))) {
            Row row;
            row.pod = int(i);
            m_rows.push_back(std::move(row));
            continue;
        }
        auto [at, added] = groupRow.emplace(member->second, m_rows.size());
        if (added) {
            Row row;
            row.group = member->second;
            m_rows.push_back(std::move(row));
            ++m_groupCount;
        }
        m_rows[at->second].members.push_back(int(i));
    }
    for (auto& row : m_rows) {
        if (row.pod >= 0)
            continue;
        const ReplayGroup& group = m_state.groups.at(row.group);
        const GroupTally tally = tallyOf(group, m_state);
        const GroupPhase phase = phaseOf(group, tally);
        row.status = phaseText(phase);
        row.settled = phase == GroupPhase::Scheduled;
        row.message = groupSummary(group, tally);
        row.minCount = group.minCount;
        row.bound = tally.bound;
        row.domain = tally.bound > 0 ? group.domain : std::string();
        for (int member : row.members)
            if (row.firstPending.isEmpty() && statusOf(m_pods[size_t(member)]) == QLatin1String("Pending"))
                row.firstPending = QString::fromStdString(api::objectKey(m_pods[size_t(member)].meta));
        for (const auto& g : groups)
            if (api::objectKey(g.meta) == row.group)
                if (const std::string said = cycleMessage(g); !said.empty())
                    row.message += QStringLiteral(": ") + QString::fromStdString(said);
    }
}

int PodsModel::pendingCount() const
{
    int n = 0;
    for (const auto& p : m_pods)
        n += statusOf(p) == QLatin1String("Pending");
    return n;
}

QString PodsModel::statusOf(const api::Pod& pod)
{
    if (pod.phase == "Succeeded" || pod.phase == "Failed")
        return QString::fromStdString(pod.phase);
    if (pod.spec.nodeName.empty())
        return QStringLiteral("Pending");
    return unschedulable(pod) ? QStringLiteral("Pending") : QStringLiteral("Scheduled");
}

int PodsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_rows.size());
    if (parent.column() != 0 || parent.internalId() != 0 || size_t(parent.row()) >= m_rows.size())
        return 0; // members have no children
    return int(m_rows[size_t(parent.row())].members.size());
}

int PodsModel::columnCount(const QModelIndex& /*parent*/) const
{
    return ColumnCount;
}

const api::Pod* PodsModel::podAt(const QModelIndex& index) const
{
    if (index.internalId() == 0) {
        const Row& row = m_rows[size_t(index.row())];
        return row.pod >= 0 ? &m_pods[size_t(row.pod)] : nullptr;
    }
    const Row& group = m_rows[size_t(topRowOf(index))];
    return size_t(index.row()) < group.members.size() ? &m_pods[size_t(group.members[size_t(index.row())])]
                                                      : nullptr;
}

QVariant PodsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.internalId() > m_rows.size()
        || (index.internalId() == 0 && size_t(index.row()) >= m_rows.size()))
        return {};
    if (const api::Pod* pod = podAt(index))
        return podData(*pod, index.column(), role);
    return index.internalId() == 0 ? groupData(m_rows[size_t(index.row())], index.column(), role)
                                   : QVariant();
}

QVariant PodsModel::podData(const api::Pod& pod, int column, int role) const
{
    const bool pending = statusOf(pod) == QLatin1String("Pending");
    const api::PodCondition* victim = preemptedBy(pod);
    const std::string key = api::objectKey(pod.meta);
    switch (role) {
    case PodKeyRole:
    case ExplainKeyRole:
        return QString::fromStdString(key);
    case PendingRole:
        return pending;
    case PreemptedRole:
        return victim != nullptr;
    case GroupKeyRole: {
        const auto group = m_state.podGroups.find(key);
        return group == m_state.podGroups.end() || !placedAsUnit(m_state.groups.at(group->second))
            ? QString()
            : QString::fromStdString(group->second);
    }
    case IsGroupRole:
        return false;
    case Qt::ForegroundRole:
        return (pending || victim) && column == StatusColumn ? QVariant(QBrush(toneColor(Tone::Warning)))
                                                             : QVariant();
    case Qt::ToolTipRole: // a long message is elided in its cell: whole in the tooltip
        if (column != MessageColumn)
            return {};
        break;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case NamespaceColumn:
        return QString::fromStdString(pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_);
    case NameColumn:
        return QString::fromStdString(pod.meta.name);
    case StatusColumn:
        return victim && !pending ? tr("Preempted") : statusOf(pod);
    case NodeColumn:
        return QString::fromStdString(pod.spec.nodeName);
    case ClaimsColumn:
        return qlonglong(pod.spec.resourceClaims.size());
    case MessageColumn: {
        const auto* c = unschedulable(pod);
        if (!c)
            c = victim;
        return c ? QString::fromStdString(c->message) : QString();
    }
    }
    return {};
}

QVariant PodsModel::groupData(const Row& row, int column, int role) const
{
    switch (role) {
    case GroupKeyRole:
        return QString::fromStdString(row.group);
    case IsGroupRole:
        return true;
    case MinCountRole:
        return row.minCount;
    case BoundRole:
        return row.bound;
    case MembersRole:
        return int(row.members.size());
    case DomainRole:
        return QString::fromStdString(row.domain);
    case ExplainKeyRole:
        return row.firstPending;
    case PodKeyRole:
        return QString();
    case PendingRole:
    case PreemptedRole:
        return false;
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return groupRowLook(role, column == StatusColumn, row.settled);
    case Qt::ToolTipRole:
        if (column == NodeColumn && !row.domain.empty())
            return tr("Placement domain %1").arg(QString::fromStdString(row.domain));
        if (column == NameColumn)
            return tr("PodGroup %1: its members are the rows under it")
                .arg(QString::fromStdString(row.group));
        if (column == MessageColumn)
            break;
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const auto slash = row.group.find('/');
    switch (column) {
    case NamespaceColumn:
        return QString::fromStdString(row.group.substr(0, slash));
    case NameColumn:
        return QString::fromStdString(row.group.substr(slash + 1));
    case StatusColumn:
        return row.status;
    case NodeColumn:
        return domainValue(row.domain);
    case MessageColumn:
        return row.message;
    }
    return QString();
}

QVariant PodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NamespaceColumn:
        return tr("Namespace");
    case NameColumn:
        return tr("Pod");
    case StatusColumn:
        return tr("Status");
    case NodeColumn:
        return tr("Node");
    case ClaimsColumn:
        return tr("Claims");
    case MessageColumn:
        return tr("Scheduler message");
    }
    return {};
}

} // namespace drasim::ui
