// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QAbstractTableModel>
#include <QString>

#include "core/planner/recommendation_reasons.h"
#include "core/planner/study_result.h"

namespace drasim::ui {

/// How the Plan tab plots a service level: waits and pending times in minutes, fractions in
/// percent. `scale` turns the planner's value (seconds or a 0..1 fraction) into the unit shown.
struct LevelAxis
{
    QString title; ///< "longest pending (min)"
    QString name; ///< the quantity alone: "longest pending"
    double scale = 1.0;
    bool percent = false;
    double limit = 0; ///< the level's bound in the unit shown
};
LevelAxis levelAxis(const planner::ServiceLevel& level);

/// Every mix a study evaluated at one load level, cheapest first: node counts, cost, power, rack
/// slots, the main service level on its worst seed, its place on the frontier (recommended, on
/// it, on it while missing a level: core's planner::LoadReasons) and each level it misses by how
/// much. The frontier chart reads the roles below.
class PlanMixesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        MixColumn,
        CostColumn,
        NodesColumn,
        PowerColumn,
        RackColumn,
        MainColumn,
        FrontierColumn,
        VerdictColumn,
        ColumnCount
    };
    enum Role {
        CostRole = Qt::UserRole + 1, ///< double, USD
        MainValueRole, ///< double, the main level on its worst seed in LevelAxis units
        FeasibleRole, ///< bool: every level on every seed, within the constraints
        FrontierRole, ///< bool: on the frontier (those missing a level included)
        RecommendedRole, ///< bool
        /// bool: the main level's value is a result; false when a seed's run stopped early (the
        /// level is only known to be missed, MainValueRole is how far the run got)
        MainKnownRole,
    };

    explicit PlanMixesModel(QObject* parent = nullptr);
    /// Shows load level `load` (index into result->loads) of the result; null clears.
    void setResult(std::shared_ptr<const planner::StudyResult> result, int load = 0);
    int load() const { return m_load; }
    const planner::StudyResult* result() const { return m_result.get(); }
    /// Why the load shown recommends its mix (core's words and frontier).
    const planner::LoadReasons& reasons() const { return m_reasons; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const planner::LoadResult* level() const;
    QVariant display(const planner::MixResult& m, int column) const;

    std::shared_ptr<const planner::StudyResult> m_result;
    int m_load = 0;
    planner::LoadReasons m_reasons;
};

/// One row per load level (today, then each growth): the recommended mix, its cost, how it
/// differs from today's, and the main level across seeds (min / mean / max). This answers "what
/// do we buy if the load grows by a quarter?".
class PlanLoadsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LoadColumn, MixColumn, CostColumn, VersusColumn, SpreadColumn, ColumnCount };

    explicit PlanLoadsModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const planner::StudyResult> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const planner::StudyResult> m_result;
};

/// The recommendation at one load level for people, as rich text: the mix and its footprint,
/// then every service level across seeds (min / mean / max) with the binding one marked, then
/// why, as core words it (planner::reasonLines: the binding level, the frontier neighbours with
/// what they miss and by how much); or why nothing qualified.
QString recommendationHtml(const planner::StudyResult& result, int load);

} // namespace drasim::ui
