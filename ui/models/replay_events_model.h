// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// The recorded pod events of one run and the events the scenario injected into the cluster (node
/// failures and returns, taints), one row each in time order; rows at or before the current time
/// are marked (bold), so a list beside the scrubber shows where t is. Injected events and
/// preemptions have a tone of their own.
class ReplayEventsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, EventColumn, PodColumn, NodeColumn, DetailColumn, ColumnCount };
    /// Raw event time (ms of simulated time) on every cell.
    static constexpr int TimeRole = Qt::UserRole + 1;

    explicit ReplayEventsModel(QObject* parent = nullptr);
    void setReplay(std::shared_ptr<const PodReplay> replay);
    void setCurrentTime(sim::SimTime t);
    /// Row of the last event at or before t (-1 when none).
    int rowAt(sim::SimTime t) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const PodReplay> m_replay;
    size_t m_done = 0; ///< rows at or before the current time
};

} // namespace drasim::ui
