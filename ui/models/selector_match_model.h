// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/session/selector_preview.h"

namespace drasim::ui {

/// One row per device of the cluster with what a CEL selector made of it: matches, does not
/// match (the selector was false), or could not be evaluated (the CEL runtime error).
class SelectorMatchModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { DeviceColumn, NodeColumn, ResultColumn, ColumnCount };
    /// DeviceMatch of the row as an int, on every column.
    static constexpr int MatchRole = Qt::UserRole + 1;

    explicit SelectorMatchModel(QObject* parent = nullptr);

    void setPreview(std::shared_ptr<const session::SelectorPreview> preview);
    const session::SelectorPreview* preview() const { return m_preview.get(); }
    /// "driver/pool/device" of a row.
    QString deviceName(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const session::SelectorPreview> m_preview;
};

} // namespace drasim::ui
