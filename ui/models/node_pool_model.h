// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QAbstractItemModel>

#include "core/sim/simulator.h"

namespace drasim::ui {

/// The cluster a scenario builds, by node pool: pools, their nodes, each node's ResourceSlices.
/// Columns: name, devices, summary. The model shares the immutable pools and resets on setPools().
class NodePoolModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, DevicesColumn, SummaryColumn, ColumnCount };
    enum Roles { KindRole = Qt::UserRole + 1 }; ///< "NodePool", "Node" or "ResourceSlice"

    explicit NodePoolModel(QObject* parent = nullptr);
    void setPools(std::vector<std::shared_ptr<const sim::NodePool>> pools);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<std::shared_ptr<const sim::NodePool>> m_pools;
};

} // namespace drasim::ui
