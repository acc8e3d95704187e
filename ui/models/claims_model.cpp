// SPDX-License-Identifier: Apache-2.0
#include "ui/models/claims_model.h"

#include <QStringList>

namespace drasim::ui {

namespace {

QString specInWords(const api::DeviceRequestSpec& s)
{
    const QString n = s.allocationMode == "All" ? QStringLiteral("all") : QString::number(s.count);
    return QStringLiteral("%1 × %2").arg(n, QString::fromStdString(s.deviceClassName));
}

QString requestsInWords(const api::ResourceClaimSpec& spec)
{
    QStringList out;
    for (const auto& r : spec.requests) {
        if (r.exactly) {
            out << QStringLiteral("%1: %2").arg(QString::fromStdString(r.name), specInWords(*r.exactly));
        } else {
            QStringList alternatives;
            for (const auto& sub : r.firstAvailable)
                alternatives << specInWords(sub.spec);
            out << QStringLiteral("%1: first of %2")
                       .arg(QString::fromStdString(r.name), alternatives.join(QStringLiteral(" | ")));
        }
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

ClaimsModel::ClaimsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ClaimsModel::setClaims(std::vector<api::ResourceClaim> claims)
{
    beginResetModel();
    m_claims = std::move(claims);
    endResetModel();
}

int ClaimsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_claims.size());
}

int ClaimsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClaimsModel::data(const QModelIndex& index, int role) const
{
    if (index.isValid() && role == ClaimKeyRole && index.row() < int(m_claims.size())) {
        const auto& c = m_claims[size_t(index.row())];
        return QString::fromStdString(c.meta.namespace_ + "/" + c.meta.name);
    }
    if (!index.isValid() || role != Qt::DisplayRole)
        return {};
    const api::ResourceClaim& c = m_claims[size_t(index.row())];
    switch (index.column()) {
    case NamespaceColumn:
        return QString::fromStdString(c.meta.namespace_);
    case NameColumn:
        return QString::fromStdString(c.meta.name);
    case RequestsColumn:
        return requestsInWords(c.spec);
    case AllocatedColumn:
        return c.allocation ? tr("yes") : tr("no");
    case DevicesColumn: {
        QStringList devices;
        if (c.allocation)
            for (const auto& r : c.allocation->results)
                devices << QString::fromStdString(r.pool + "/" + r.device);
        return devices.join(QStringLiteral(", "));
    }
    case ReservedForColumn: {
        QStringList pods;
        for (const auto& r : c.reservedFor)
            pods << QString::fromStdString(r.name);
        return pods.join(QStringLiteral(", "));
    }
    }
    return {};
}

QVariant ClaimsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NamespaceColumn:
        return tr("Namespace");
    case NameColumn:
        return tr("Claim");
    case RequestsColumn:
        return tr("Requests");
    case AllocatedColumn:
        return tr("Allocated");
    case DevicesColumn:
        return tr("Devices (pool/device)");
    case ReservedForColumn:
        return tr("Reserved for");
    }
    return {};
}

} // namespace drasim::ui
