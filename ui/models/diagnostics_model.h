// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/common/diagnostic.h"

namespace drasim::ui {

/// The problems found in the input, one row each: severity, location, object, field, message.
class DiagnosticsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, ObjectColumn, FieldColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    const Diagnostic* diagnosticAt(int row) const;
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> m_items;
};

} // namespace drasim::ui
