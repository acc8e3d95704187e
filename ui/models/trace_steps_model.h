// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/allocator/allocation_trace.h"

namespace drasim::ui {

/// The allocator's steps for one pod, one row each: number, node, claim and request, and the step
/// in words (try a node, try an alternative, a device rejected and why, a pick, a pick taken back,
/// the end); the tooltip says it all in one sentence.
class TraceStepsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StepColumn, NodeColumn, RequestColumn, WhatColumn, ColumnCount };
    /// allocator::TraceStep of the row as an int, on every column.
    static constexpr int StepKindRole = Qt::UserRole + 1;

    explicit TraceStepsModel(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const allocator::AllocationTrace> trace);
    const allocator::AllocationTrace* trace() const { return m_trace.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// The WhatColumn text: the step without its claim and request.
    static QString whatText(const allocator::TraceEvent& event);

private:
    std::shared_ptr<const allocator::AllocationTrace> m_trace;
};

} // namespace drasim::ui
