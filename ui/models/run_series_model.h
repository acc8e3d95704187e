// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "core/sim/run_recorder.h"

namespace drasim::ui {

/// The time series of one simulation run as a table: column 0 is simulated time in hours, then one
/// column per series ("pods.pending", "utilization.model/H100", ...), one row per sample. Series
/// that appear mid-run get a new column; earlier rows read as missing (NaN). Charts map columns.
class RunSeriesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit RunSeriesModel(QObject* parent = nullptr);

    void clear();
    void append(const std::vector<sim::MetricSample>& samples);

    /// Series names ("metric" or "metric/key") in column order (column = index + 1).
    const QStringList& seriesNames() const { return m_names; }
    int columnOf(const QString& series) const; ///< -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void seriesAdded(const QString& name, int column);

private:
    QStringList m_names;
    std::map<std::string, int> m_columns; // series name → column
    std::vector<double> m_times; // hours, one per row
    std::vector<std::vector<double>> m_values; // [column-1][row]
};

} // namespace drasim::ui
