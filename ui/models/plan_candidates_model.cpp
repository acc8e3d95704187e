// SPDX-License-Identifier: Apache-2.0
#include "ui/models/plan_candidates_model.h"

#include <QObject>
#include <QString>

#include "ui/models/core_text.h"

namespace drasim::ui {

PlanCandidatesModel::PlanCandidatesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PlanCandidatesModel::setResult(std::shared_ptr<const planner::StudyResult> result, int load)
{
    beginResetModel();
    m_result = std::move(result);
    m_load = m_result && load >= 0 && size_t(load) < m_result->loads.size() ? load : 0;
    endResetModel();
}

int PlanCandidatesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->candidates.size());
}

int PlanCandidatesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanCandidatesModel::display(size_t row, int column) const
{
    const planner::StudyResult& r = *m_result;
    const planner::PricedCandidate& c = r.candidates[row];
    switch (column) {
    case NameColumn:
        return text(c.name);
    case ShapeColumn:
        return text(c.shape);
    case PriceColumn:
        // The price the study's cost basis adds up (an hourly one for the simulated hours).
        if (r.cost == planner::CostBasis::Hourly)
            return c.perHourUsd > 0 ? tr("$%1/h").arg(c.perHourUsd, 0, 'f', 2) : tr("no price");
        return c.purchaseUsd > 0 ? text(planner::formatMoney(c.purchaseUsd)) : tr("no price");
    case PowerColumn:
        return QString::number(c.powerWatts / 1000.0, 'f', 1);
    case RackColumn:
        return c.rackSlots;
    case MaxColumn:
        return c.maxNodes;
    case RecommendedColumn: {
        if (size_t(m_load) >= r.loads.size())
            return {};
        const planner::LoadResult& lr = r.loads[size_t(m_load)];
        if (!lr.recommended)
            return tr("none qualifies");
        const planner::Mix& mix = lr.mixes[*lr.recommended].mix;
        return row < mix.size() ? QVariant(c.nodes(mix[row])) : QVariant();
    }
    default:
        return {};
    }
}

QVariant PlanCandidatesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_result || size_t(index.row()) >= m_result->candidates.size())
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == NameColumn || index.column() == ShapeColumn
            ? QVariant()
            : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    return display(size_t(index.row()), index.column());
}

QVariant PlanCandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == RecommendedColumn)
        return tr("Nodes of this candidate the recommendation buys at the load shown");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Candidate");
    case ShapeColumn:
        return tr("Shape");
    case PriceColumn:
        return m_result && m_result->cost == planner::CostBasis::Hourly ? tr("Price per node-hour")
                                                                        : tr("Price per node");
    case PowerColumn:
        return tr("Power per node (kW)");
    case RackColumn:
        return tr("Rack slots per node");
    case MaxColumn:
        return tr("At most (search)");
    case RecommendedColumn:
        return tr("Recommended");
    default:
        return {};
    }
}

} // namespace drasim::ui
