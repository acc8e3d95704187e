// SPDX-License-Identifier: Apache-2.0
#include "ui/models/replay_events_model.h"

#include <QFont>

#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

ReplayEventsModel::ReplayEventsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ReplayEventsModel::setReplay(std::shared_ptr<const PodReplay> replay)
{
    beginResetModel();
    m_replay = std::move(replay);
    m_done = m_replay ? m_replay->events().size() : 0;
    endResetModel();
}

void ReplayEventsModel::setCurrentTime(sim::SimTime t)
{
    if (!m_replay)
        return;
    const size_t done = m_replay->eventsUpTo(t);
    if (done == m_done)
        return;
    const size_t lo = std::min(done, m_done);
    const size_t hi = std::max(done, m_done);
    m_done = done;
    Q_EMIT dataChanged(index(int(lo), 0), index(int(hi) - 1, ColumnCount - 1), { Qt::FontRole });
}

int ReplayEventsModel::rowAt(sim::SimTime t) const
{
    return m_replay ? int(m_replay->eventsUpTo(t)) - 1 : -1;
}

int ReplayEventsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_replay ? 0 : int(m_replay->events().size());
}

int ReplayEventsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayEventsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_replay)
        return {};
    const ReplayEvent& e = m_replay->events()[size_t(index.row())];
    if (role == TimeRole)
        return QVariant::fromValue<qint64>(e.time);
    if (role == Qt::FontRole) {
        QFont font;
        font.setBold(size_t(index.row()) < m_done);
        return font;
    }
    // What the scenario did to the cluster, and a pod evicted by preemption, stand out from the
    // pods' own comings and goings.
    if (role == Qt::ForegroundRole && !e.kind.empty())
        return toneColor(Tone::Bad);
    if (role == Qt::ForegroundRole && e.type == sim::PodEventType::Preempted)
        return toneColor(Tone::Warning);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn: // to the second; the tooltip as the transcript prints it, to the millisecond
        return role == Qt::ToolTipRole ? formatExactSimTime(e.time) : formatSimTime(e.time);
    case EventColumn:
        return e.kind.empty() ? QString::fromUtf8(sim::podEventTypeName(e.type))
                              : QString::fromStdString(e.kind);
    case PodColumn:
        return QString::fromStdString(e.pod);
    case NodeColumn:
        return QString::fromStdString(e.node);
    case DetailColumn: {
        if (!e.message.empty())
            return QString::fromStdString(e.message);
        QStringList devices;
        for (const auto& [claim, key] : e.devices)
            devices << QString::fromStdString(key.device);
        return devices.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QVariant ReplayEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case EventColumn:
        return tr("Event");
    case PodColumn:
        return tr("Pod");
    case NodeColumn:
        return tr("Node");
    case DetailColumn:
        return tr("Devices / reason / what happened");
    default:
        return {};
    }
}

} // namespace drasim::ui
