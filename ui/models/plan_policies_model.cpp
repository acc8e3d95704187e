// SPDX-License-Identifier: Apache-2.0
#include "ui/models/plan_policies_model.h"

#include <QFont>
#include <QObject>
#include <QString>

#include "core/planner/study_result.h"
#include "core/scheduler/scoring_profile.h"
#include "ui/models/core_text.h"

namespace drasim::ui {

PlanPoliciesModel::PlanPoliciesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PlanPoliciesModel::setResult(std::shared_ptr<const planner::PolicyStudyResult> result, int load)
{
    beginResetModel();
    m_result = std::move(result);
    const size_t loads
        = m_result && !m_result->policies.empty() ? m_result->policies.front().result.loads.size() : 0;
    m_load = load >= 0 && size_t(load) < loads ? load : 0;
    m_rows = loads > 0 ? planner::policyComparison(*m_result, size_t(m_load))
                       : std::vector<planner::PolicyComparison> {};
    m_cheapest = -1;
    for (const auto& c : m_rows)
        if (c.recommended && (m_cheapest < 0 || c.costUsd < m_cheapest))
            m_cheapest = c.costUsd;
    endResetModel();
}

int PlanPoliciesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PlanPoliciesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanPoliciesModel::display(const planner::PolicyComparison& c, int column) const
{
    switch (column) {
    case PolicyColumn:
        return QString::fromUtf8(scheduler::scoringPolicyName(c.policy));
    case MixColumn:
        return text(c.mix);
    case CostColumn:
        return text(c.cost);
    case NodesColumn:
        return c.recommended ? QVariant(qint64(c.nodes)) : QVariant(QString());
    case VersusColumn:
        return text(c.versus);
    default:
        return {};
    }
}

QVariant PlanPoliciesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const planner::PolicyComparison& row = m_rows[size_t(index.row())];
    const bool cheapest = row.recommended && row.costUsd == m_cheapest;
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::FontRole:
        if (cheapest) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == CostColumn || index.column() == NodesColumn
            ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
            : QVariant();
    case Qt::ToolTipRole:
        return cheapest ? tr("No policy's mix at this load costs less") : QVariant();
    default:
        return {};
    }
}

QVariant PlanPoliciesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PolicyColumn:
        return tr("Scoring policy");
    case MixColumn:
        return tr("Cheapest mix");
    case CostColumn:
        return tr("Cost");
    case NodesColumn:
        return tr("Servers");
    case VersusColumn:
        // Against the first policy's mix at today's load, as `drasim plan` says it.
        return m_result && !m_result->policies.empty()
            ? tr("Versus %1 today")
                  .arg(QString::fromUtf8(scheduler::scoringPolicyName(m_result->policies.front().policy)))
            : tr("Versus the first policy today");
    default:
        return {};
    }
}

} // namespace drasim::ui
