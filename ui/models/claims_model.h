// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/api/resource_v1.h"

namespace drasim::ui {

/// ResourceClaims after scheduling, one row each: namespace, name, requests, whether allocated,
/// the devices allocated (driver/pool/device) and the pods it is reserved for.
class ClaimsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NamespaceColumn,
        NameColumn,
        RequestsColumn,
        AllocatedColumn,
        DevicesColumn,
        ReservedForColumn,
        ColumnCount
    };
    enum Roles { ClaimKeyRole = Qt::UserRole + 1 }; ///< "namespace/name" on every cell

    explicit ClaimsModel(QObject* parent = nullptr);
    void setClaims(std::vector<api::ResourceClaim> claims);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<api::ResourceClaim> m_claims;
};

} // namespace drasim::ui
