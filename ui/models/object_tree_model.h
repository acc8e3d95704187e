// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QAbstractItemModel>

#include "core/api/object_set.h"

namespace drasim::ui {

/// The devices of the set's slices a DeviceTaintRule selects, as "driver/pool/device" in slice
/// order (the same selection the scheduler's view of the slices gets the taint on).
std::vector<std::string> devicesTaintedBy(const api::ObjectSet& objects, const api::DeviceTaintRule& rule);

/// A rule's selector in words: "driver gpu.nvidia.com, pool node-a", "every device" for an empty
/// selector, "no device (no selector)" without one.
QString taintRuleSelectorText(const api::DeviceTaintRule& rule);

/// Two-level tree over a loaded ObjectSet: one row per kind ("ResourceSlice (12)"), its objects below.
/// Columns: name, namespace, summary. The model owns an immutable snapshot and resets on setObjects().
class ObjectTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, NamespaceColumn, SummaryColumn, ColumnCount };
    enum Roles { KindRole = Qt::UserRole + 1, ObjectIndexRole };

    explicit ObjectTreeModel(QObject* parent = nullptr);

    void setObjects(std::shared_ptr<const api::ObjectSet> objects);
    const api::ObjectSet* objects() const { return m_objects.get(); }

    /// Kind name and index within that kind's list for an object row; empty kind for group rows.
    struct ObjectRef
    {
        QString kind;
        int index = -1;
    };
    ObjectRef objectAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString name;
        QString nameSpace;
        QString summary;
    };
    struct Group
    {
        QString kind;
        std::vector<Row> rows;
    };
    void rebuild();

    std::shared_ptr<const api::ObjectSet> m_objects;
    std::vector<Group> m_groups; // only non-empty kinds, in a fixed order
};

} // namespace drasim::ui
