// SPDX-License-Identifier: Apache-2.0
#include "ui/models/pods_model.h"

#include <QBrush>

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

QString key(const api::Pod& pod)
{
    const std::string ns = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
    return QString::fromStdString(ns + "/" + pod.meta.name);
}

} // namespace

PodsModel::PodsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PodsModel::setPods(std::vector<api::Pod> pods)
{
    beginResetModel();
    m_pods = std::move(pods);
    endResetModel();
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
    return parent.isValid() ? 0 : int(m_pods.size());
}

int PodsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PodsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const api::Pod& pod = m_pods[size_t(index.row())];
    const bool pending = statusOf(pod) == QLatin1String("Pending");
    const api::PodCondition* victim = preemptedBy(pod);
    switch (role) {
    case PodKeyRole:
    case ExplainKeyRole:
        return key(pod);
    case PendingRole:
        return pending;
    case PreemptedRole:
        return victim != nullptr;
    case Qt::ForegroundRole:
        return (pending || victim) && index.column() == StatusColumn
            ? QVariant(QBrush(toneColor(Tone::Warning)))
            : QVariant();
    case Qt::ToolTipRole: // a long message is elided in its cell: whole in the tooltip
        if (index.column() != MessageColumn)
            return {};
        break;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
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
