// SPDX-License-Identifier: Apache-2.0
#include "ui/models/run_series_model.h"

#include <cmath>
#include <limits>

#include "core/sim/sim_time.h"

namespace drasim::ui {

namespace {
constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
}

RunSeriesModel::RunSeriesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RunSeriesModel::clear()
{
    beginResetModel();
    m_names.clear();
    m_columns.clear();
    m_times.clear();
    m_values.clear();
    endResetModel();
}

int RunSeriesModel::columnOf(const QString& series) const
{
    auto it = m_columns.find(series.toStdString());
    return it == m_columns.end() ? -1 : it->second;
}

void RunSeriesModel::append(const std::vector<sim::MetricSample>& samples)
{
    if (samples.empty())
        return;
    // New series first, so the rows below can fill every column.
    for (const auto& s : samples) {
        for (const auto& p : s.points) {
            std::string name = p.key.empty() ? p.metric : p.metric + "/" + p.key;
            if (m_columns.count(name))
                continue;
            const int column = int(m_names.size()) + 1;
            beginInsertColumns({}, column, column);
            m_columns.emplace(name, column);
            m_names << QString::fromStdString(name);
            m_values.emplace_back(m_times.size(), kMissing);
            endInsertColumns();
            Q_EMIT seriesAdded(m_names.back(), column);
        }
    }
    const int first = int(m_times.size());
    beginInsertRows({}, first, first + int(samples.size()) - 1);
    for (const auto& s : samples) {
        m_times.push_back(sim::toSeconds(s.time) / 3600.0);
        for (auto& column : m_values)
            column.push_back(kMissing);
        for (const auto& p : s.points) {
            std::string name = p.key.empty() ? p.metric : p.metric + "/" + p.key;
            m_values[size_t(m_columns[name] - 1)].back() = p.value;
        }
    }
    endInsertRows();
}

int RunSeriesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_times.size());
}

int RunSeriesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_names.size()) + 1;
}

QVariant RunSeriesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::EditRole))
        return {};
    const size_t row = size_t(index.row());
    if (index.column() == 0)
        return m_times[row];
    const double v = m_values[size_t(index.column() - 1)][row];
    return std::isnan(v) ? QVariant() : QVariant(v);
}

QVariant RunSeriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return section == 0 ? tr("Time (h)") : m_names.value(section - 1);
}

} // namespace drasim::ui
