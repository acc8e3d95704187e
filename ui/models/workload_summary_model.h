// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/sim/run_summary.h"

namespace drasim::ui {

/// One row per workload of a finished run: jobs, pods, and wait/completion percentiles (durations
/// as every view writes them; SecondsRole holds them in seconds).
class WorkloadSummaryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        JobsColumn,
        SucceededColumn,
        PendingColumn,
        WaitP50Column,
        WaitP90Column,
        WaitP95Column,
        WaitP99Column,
        CompletionP95Column,
        ColumnCount
    };

    /// A wait or completion column's value in seconds (a double), to sort by.
    static constexpr int SecondsRole = Qt::UserRole + 1;

    explicit WorkloadSummaryModel(QObject* parent = nullptr);
    void setWorkloads(std::vector<sim::WorkloadSummary> workloads);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<sim::WorkloadSummary> m_rows;
};

} // namespace drasim::ui
