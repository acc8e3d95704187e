// SPDX-License-Identifier: Apache-2.0
#include "ui/models/node_pool_model.h"

#include "ui/models/core_text.h"

namespace drasim::ui {

namespace {

// An index's internal id names its parent: 0 for pools; (pool + 1) << 32 for nodes;
// (pool + 1) << 32 | (node + 1) for slices.
quintptr idOf(quint64 pool1, quint64 node1)
{
    return quintptr((pool1 << 32) | node1);
}
quint64 poolOf(quintptr id)
{
    return quint64(id) >> 32;
}
quint64 nodeOf(quintptr id)
{
    return quint64(id) & 0xffffffffu;
}

size_t deviceCount(const sim::NodeSpec& n)
{
    size_t devices = 0;
    for (const auto& s : n.slices)
        devices += s.devices.size();
    return devices;
}

} // namespace

NodePoolModel::NodePoolModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void NodePoolModel::setPools(std::vector<std::shared_ptr<const sim::NodePool>> pools)
{
    beginResetModel();
    m_pools = std::move(pools);
    endResetModel();
}

QModelIndex NodePoolModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    const quintptr pid = parent.internalId();
    if (pid == 0)
        return createIndex(row, column, idOf(quint64(parent.row()) + 1, 0));
    return createIndex(row, column, idOf(poolOf(pid), quint64(parent.row()) + 1));
}

QModelIndex NodePoolModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const quintptr id = child.internalId();
    if (nodeOf(id) == 0)
        return createIndex(int(poolOf(id) - 1), 0, quintptr(0));
    return createIndex(int(nodeOf(id) - 1), 0, idOf(poolOf(id), 0));
}

int NodePoolModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_pools.size());
    if (parent.column() != 0)
        return 0;
    const quintptr pid = parent.internalId();
    if (pid == 0)
        return int(m_pools[size_t(parent.row())]->nodes.size());
    if (nodeOf(pid) == 0)
        return int(m_pools[size_t(poolOf(pid) - 1)]->nodes[size_t(parent.row())].slices.size());
    return 0;
}

int NodePoolModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant NodePoolModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != KindRole))
        return {};
    const quintptr id = index.internalId();
    const size_t row = size_t(index.row());
    if (id == 0) {
        const auto& pool = *m_pools[row];
        if (role == KindRole)
            return QStringLiteral("NodePool");
        size_t devices = 0;
        for (const auto& n : pool.nodes)
            devices += deviceCount(n);
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(pool.name);
        case DevicesColumn:
            return qulonglong(devices);
        case SummaryColumn:
            // A pool without a price says so: "$0.00" would read as free.
            return pool.pricePerHour > 0
                ? tr("%1, $%2 per node-hour")
                      .arg(countOf(qint64(pool.nodes.size()), tr("node"), tr("nodes")),
                          QString::number(pool.pricePerHour, 'f', 2))
                : tr("%1, no price").arg(countOf(qint64(pool.nodes.size()), tr("node"), tr("nodes")));
        }
        return {};
    }
    const auto& pool = *m_pools[size_t(poolOf(id) - 1)];
    if (nodeOf(id) == 0) {
        const auto& node = pool.nodes[row];
        if (role == KindRole)
            return QStringLiteral("Node");
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(node.node.meta.name);
        case DevicesColumn:
            return qulonglong(deviceCount(node));
        case SummaryColumn: {
            auto alloc = [&](const char* r) {
                auto it = node.node.allocatable.find(r);
                return it == node.node.allocatable.end() ? QStringLiteral("?")
                                                         : QString::fromStdString(it->second.toString());
            };
            return tr("cpu=%1, memory=%2, %3")
                .arg(alloc("cpu"), alloc("memory"),
                    countOf(qint64(node.slices.size()), tr("slice"), tr("slices")));
        }
        }
        return {};
    }
    const auto& slice = pool.nodes[size_t(nodeOf(id) - 1)].slices[row];
    if (role == KindRole)
        return QStringLiteral("ResourceSlice");
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(slice.meta.name);
    case DevicesColumn:
        return qulonglong(slice.devices.size());
    case SummaryColumn:
        return tr("driver %1, pool %2")
            .arg(QString::fromStdString(slice.driver), QString::fromStdString(slice.pool.name));
    }
    return {};
}

QVariant NodePoolModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Pool / node / slice");
    case DevicesColumn:
        return tr("Devices");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

} // namespace drasim::ui
