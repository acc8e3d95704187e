// SPDX-License-Identifier: Apache-2.0
#include "ui/models/trace_steps_model.h"

#include <QBrush>
#include <QFont>

#include "ui/models/tone_colors.h"

namespace drasim::ui {

using allocator::TraceStep;

TraceStepsModel::TraceStepsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void TraceStepsModel::setTrace(std::shared_ptr<const allocator::AllocationTrace> trace)
{
    beginResetModel();
    m_trace = std::move(trace);
    endResetModel();
}

int TraceStepsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_trace ? 0 : int(m_trace->events().size());
}

int TraceStepsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceStepsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_trace)
        return {};
    const auto& e = m_trace->events()[size_t(index.row())];
    switch (role) {
    case StepKindRole:
        return int(e.step);
    case Qt::ForegroundRole:
        switch (e.step) {
        case TraceStep::Picked:
            return QBrush(toneColor(Tone::Good));
        case TraceStep::Backtracked:
            return QBrush(toneColor(Tone::Warning));
        case TraceStep::Rejected:
            return QBrush(toneColor(Tone::Muted));
        default:
            return {};
        }
    case Qt::FontRole:
        if (e.step == TraceStep::Attempt || e.step == TraceStep::Finished) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        return QString::fromStdString(allocator::describeTraceEvent(e));
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn:
            return index.row() + 1;
        case NodeColumn:
            return QString::fromStdString(e.node);
        case RequestColumn:
            if (e.claimKey.empty())
                return QString();
            if (e.step == TraceStep::Alternative)
                return QString::fromStdString(e.claimKey + " · " + e.requestName);
            return tr("%1 · %2 (%3 of %4)")
                .arg(QString::fromStdString(e.claimKey), QString::fromStdString(e.requestName))
                .arg(e.slot + 1)
                .arg(e.slotCount);
        case WhatColumn:
            return whatText(e);
        }
        return {};
    default:
        return {};
    }
}

QString TraceStepsModel::whatText(const allocator::TraceEvent& e)
{
    const QString device = QString::fromStdString(e.deviceName);
    switch (e.step) {
    case TraceStep::Rejected: {
        QString s = tr("%1 ✗ %2").arg(device, QString::fromUtf8(allocator::rejectReasonWords(e.reason)));
        if (!e.detail.empty())
            s += QStringLiteral(" (%1)").arg(QString::fromStdString(e.detail));
        return s;
    }
    case TraceStep::Picked:
        return tr("pick %1").arg(device);
    case TraceStep::Backtracked:
        return tr("take back %1 (nothing works after it)").arg(device);
    case TraceStep::Alternative:
        return tr("try alternative %1").arg(e.sub + 1);
    default:
        return QString::fromStdString(allocator::describeTraceEvent(e));
    }
}

QVariant TraceStepsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return tr("Step");
    case NodeColumn:
        return tr("Node");
    case RequestColumn:
        return tr("Claim · request (device)");
    case WhatColumn:
        return tr("What the allocator does");
    }
    return {};
}

} // namespace drasim::ui
