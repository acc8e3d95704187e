// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSortFilterProxyModel>

namespace drasim::ui {

class NodeTilesModel;
struct NodeTile;

/// The nodes the Topology grid shows, in the order it shows them: filtered by pool, device model
/// and condition, grouped by pool, rack or model (groups in name order), and sorted within a
/// group by name (numbers in names compare as numbers: node-9 before node-10) or by use, the
/// fullest first. Re-sorts and re-filters as the time changes the nodes' use and condition.
class NodeTilesFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum class State {
        Any,
        Up, ///< neither down, draining nor tainted
        Down,
        Draining,
        Tainted,
        Idle, ///< up and nothing held
        Busy, ///< something held
        Full, ///< its fullest class wholly held
    };
    enum class SortBy { Name, Use };
    enum class GroupBy { None, Pool, Rack, Model };

    explicit NodeTilesFilter(NodeTilesModel* source, QObject* parent = nullptr);

    /// Empty: any pool (model). A model matches a node with any device of that model.
    void setPool(const QString& pool);
    void setModel(const QString& model);
    void setState(State state);
    void setSortBy(SortBy sort);
    void setGroupBy(GroupBy group);
    QString pool() const { return m_pool; }
    QString model() const { return m_model; }
    State state() const { return m_state; }
    SortBy sortBy() const { return m_sortBy; }
    GroupBy groupBy() const { return m_groupBy; }

    /// The group a shown row belongs to ("" when not grouping; "no rack" for a node without one).
    QString groupOf(int row) const;
    /// The tile of a shown row.
    const NodeTile& tileAt(int row) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString groupKey(const NodeTile& tile) const;
    void refilter();

    NodeTilesModel* m_source;
    QString m_pool;
    QString m_model;
    State m_state = State::Any;
    SortBy m_sortBy = SortBy::Name;
    GroupBy m_groupBy = GroupBy::None;
};

} // namespace drasim::ui
