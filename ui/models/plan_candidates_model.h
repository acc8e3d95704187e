// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/planner/study_result.h"

namespace drasim::ui {

/// The hardware a study chooses from, one row per candidate: its shape, how many are owned
/// already (spec.owned), its price on the study's cost basis (purchase; per hour when the study
/// prices by the hour; purchase plus energy over the years for a total cost of ownership), power
/// and rack slots per node, how many the search may buy, and how many the recommendation at the
/// load shown buys (on top of those owned).
class PlanCandidatesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ShapeColumn,
        OwnedColumn,
        PriceColumn,
        PowerColumn,
        RackColumn,
        MaxColumn,
        RecommendedColumn,
        ColumnCount
    };

    explicit PlanCandidatesModel(QObject* parent = nullptr);
    /// Shows the candidates of `result` and the recommendation at load level `load`; null clears.
    void setResult(std::shared_ptr<const planner::StudyResult> result, int load = 0);
    /// Whether the study owns nodes of any candidate (the view shows the owned column only then).
    bool ownsAny() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(size_t row, int column) const;
    QVariant toolTip(size_t row, int column) const;

    std::shared_ptr<const planner::StudyResult> m_result;
    int m_load = 0;
};

} // namespace drasim::ui
