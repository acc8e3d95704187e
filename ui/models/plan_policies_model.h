// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/planner/policy_study.h"

namespace drasim::ui {

/// A study comparing scoring policies (spec.policies) at one load level, one row per policy in the
/// study's order: the policy's cheapest mix meeting every service level, its cost, its servers,
/// and how it differs from the first policy's mix at today's load, in core's words
/// (planner::policyComparison, the lines `drasim plan` prints for that load). The cheapest rows
/// are bold.
class PlanPoliciesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { PolicyColumn, MixColumn, CostColumn, NodesColumn, VersusColumn, ColumnCount };

    explicit PlanPoliciesModel(QObject* parent = nullptr);
    /// Shows load level `load` (index into each policy's loads) of `result`; null clears.
    void setResult(std::shared_ptr<const planner::PolicyStudyResult> result, int load = 0);
    int load() const { return m_load; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const planner::PolicyComparison& row, int column) const;

    std::shared_ptr<const planner::PolicyStudyResult> m_result;
    int m_load = 0;
    std::vector<planner::PolicyComparison> m_rows;
    double m_cheapest = -1; ///< the lowest cost of a mix at this load, -1 when none qualifies
};

} // namespace drasim::ui
