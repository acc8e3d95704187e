// SPDX-License-Identifier: Apache-2.0
#include "ui/models/workload_summary_model.h"

#include "ui/models/time_text.h"

namespace drasim::ui {

WorkloadSummaryModel::WorkloadSummaryModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void WorkloadSummaryModel::setWorkloads(std::vector<sim::WorkloadSummary> workloads)
{
    beginResetModel();
    m_rows = std::move(workloads);
    endResetModel();
}

int WorkloadSummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int WorkloadSummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WorkloadSummaryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const auto& w = m_rows[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && (role != SecondsRole || index.column() < WaitP50Column))
        return {};
    // Durations as every view writes them ("5h37m31s"); a wait that pods never scheduled could
    // still raise is a lower bound (core/sim/percentiles.h). SecondsRole gives the number to sort by.
    auto duration = [role](double seconds, bool atLeast = false) -> QVariant {
        return role == SecondsRole ? QVariant(seconds) : QVariant(formatSeconds(seconds, atLeast));
    };
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(w.name);
    case JobsColumn:
        return qlonglong(w.jobsArrived);
    case SucceededColumn:
        return qlonglong(w.jobsSucceeded);
    case PendingColumn:
        return qlonglong(w.podsPendingAtEnd);
    case WaitP50Column:
        return duration(w.waitSeconds.p50, w.waitSeconds.atLeast.p50);
    case WaitP90Column:
        return duration(w.waitSeconds.p90, w.waitSeconds.atLeast.p90);
    case WaitP95Column:
        return duration(w.waitSeconds.p95, w.waitSeconds.atLeast.p95);
    case WaitP99Column:
        return duration(w.waitSeconds.p99, w.waitSeconds.atLeast.p99);
    case CompletionP95Column:
        return duration(w.jobCompletionSeconds.p95);
    }
    return {};
}

QVariant WorkloadSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Workload");
    case JobsColumn:
        return tr("Jobs");
    case SucceededColumn:
        return tr("Succeeded");
    case PendingColumn:
        return tr("Pods pending at end");
    case WaitP50Column:
        return tr("Wait p50");
    case WaitP90Column:
        return tr("Wait p90");
    case WaitP95Column:
        return tr("Wait p95");
    case WaitP99Column:
        return tr("Wait p99");
    case CompletionP95Column:
        return tr("Job completion p95");
    }
    return {};
}

} // namespace drasim::ui
