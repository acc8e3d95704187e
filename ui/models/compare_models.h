// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/compare/comparison.h"
#include "core/storage/run_store.h"

namespace drasim::ui {

/// The runs of a run store, newest first, for choosing two to compare: "#12 default rev 2,
/// seed 43 (finished)". Only finished runs can be compared; the others show but are disabled.
class RunListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { RunIdRole = Qt::UserRole + 1 };

    explicit RunListModel(QObject* parent = nullptr);
    void setRuns(std::vector<storage::RunInfo> runs);
    const std::vector<storage::RunInfo>& runs() const { return m_runs; }
    /// Row of a run id, -1 when absent.
    int rowOf(qint64 id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    std::vector<storage::RunInfo> m_runs;
};

/// The KPIs of two runs side by side: group, KPI, unit, the baseline's value, the other's, and
/// the difference, coloured by whether it is an improvement (the KPI says which direction is
/// better). Values as `drasim compare` prints them; waits in seconds also as durations.
class KpiCompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { GroupColumn, NameColumn, UnitColumn, BaseColumn, OtherColumn, DeltaColumn, ColumnCount };
    enum Role {
        /// -1 the other run is worse, +1 better, 0 equal or no direction (for colouring and tests)
        VerdictRole = Qt::UserRole + 1,
    };

    explicit KpiCompareModel(QObject* parent = nullptr);
    /// Shows run 0 (the baseline) against run 1 of the comparison; null clears.
    void setComparison(std::shared_ptr<const compare::Comparison> comparison);
    const compare::Comparison* comparison() const { return m_comparison.get(); }
    /// The row of a KPI name ("wait.p95/training"), -1 when absent.
    int rowOf(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int verdict(const compare::Kpi& k) const;

    std::shared_ptr<const compare::Comparison> m_comparison;
};

/// "#12 default rev 2, seed 43": how a run is named in pickers, headers and legends.
QString runLabel(const compare::RunColumn& run);
/// A KPI value with its unit as a person reads it: "42 pods", "14m3s" (seconds), "61.5%", "$1,234.50".
QString kpiValueText(const std::optional<double>& value, const std::string& unit, bool sign = false);
/// A KPI id in words: "neverScheduled" reads "never scheduled", "wait.p95/training" stays.
QString kpiDisplayName(const QString& id);

} // namespace drasim::ui
