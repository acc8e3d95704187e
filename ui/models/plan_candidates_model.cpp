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

bool PlanCandidatesModel::ownsAny() const
{
    return m_result && planner::anyOwned(m_result->candidates);
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
    case OwnedColumn:
        return c.ownedNodes();
    case PriceColumn:
        // The price the study's cost basis adds up (an hourly one for the simulated hours).
        if (r.cost == planner::CostBasis::Hourly)
            return c.perHourUsd > 0 ? tr("$%1/h").arg(c.perHourUsd, 0, 'f', 2) : tr("no price");
        if (c.purchaseUsd <= 0)
            return tr("no price");
        // A total cost of ownership adds each node's energy over the years to its purchase.
        return text(planner::formatMoney(planner::nodeCost(c, r.cost, r.durationHours, r.tco)));
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
    if (role == Qt::ToolTipRole)
        return toolTip(size_t(index.row()), index.column());
    if (role != Qt::DisplayRole)
        return {};
    return display(size_t(index.row()), index.column());
}

QVariant PlanCandidatesModel::toolTip(size_t row, int column) const
{
    const planner::StudyResult& r = *m_result;
    const planner::PricedCandidate& c = r.candidates[row];
    if (column == PriceColumn && r.cost == planner::CostBasis::Tco && c.purchaseUsd > 0)
        return text(planner::tcoNodeText(r, c) + ": " + planner::costBasisText(r));
    if (column == OwnedColumn && c.ownedNodes() > 0)
        return tr("Every mix the study evaluates holds these %1 nodes; it costs only what is bought on top")
            .arg(c.ownedNodes());
    return {};
}

QVariant PlanCandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == RecommendedColumn)
        return ownsAny() ? tr("Nodes of this candidate the recommendation buys on top of those owned, at the "
                              "load shown")
                         : tr("Nodes of this candidate the recommendation buys at the load shown");
    if (role == Qt::ToolTipRole && section == PriceColumn && m_result
        && m_result->cost == planner::CostBasis::Tco)
        return text(planner::costBasisText(*m_result));
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Candidate");
    case ShapeColumn:
        return tr("Shape");
    case OwnedColumn:
        return tr("Owned");
    case PriceColumn:
        if (m_result && m_result->cost == planner::CostBasis::Hourly)
            return tr("Price per node-hour");
        if (m_result && m_result->cost == planner::CostBasis::Tco)
            return tr("Cost per node over %1 years").arg(m_result->tco.years);
        return tr("Price per node");
    case PowerColumn:
        return tr("Power per node (kW)");
    case RackColumn:
        return tr("Rack slots per node");
    case MaxColumn:
        return tr("At most (search)");
    case RecommendedColumn:
        return ownsAny() ? tr("Buy on top") : tr("Recommended");
    default:
        return {};
    }
}

} // namespace drasim::ui
