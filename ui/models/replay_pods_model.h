// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// The pods of a simulated run at one moment, from its replay: those running (with their node and
/// the claims holding devices) and those pending (with the scheduler's last message). A running
/// preemption victim reads "Preempted", with who preempted it as its message. Same columns
/// and roles as PodsModel, so the Pods and claims tab shows either. Pods that finished or have
/// not arrived yet are not listed. Resets on setState().
class ReplayPodsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit ReplayPodsModel(QObject* parent = nullptr);
    /// The pods of `state` (the replay's state at some time), sorted by namespace/name.
    void setState(const ReplayState& state);
    void clear();
    int pendingCount() const { return m_pending; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString key; ///< namespace/name
        QString node;
        QStringList claims;
        QString message;
        bool pending = false;
        bool preempted = false; ///< running out its grace period as a preemption victim
    };
    std::vector<Row> m_rows;
    int m_pending = 0;
};

/// What an empty table of a run's pods at the state's time means: "8,152 pods succeeded; none
/// running or pending at d151 00:00:00", or that no pod has arrived yet. Empty while pods run or
/// wait.
QString emptyRunText(const ReplayState& state);

/// What the recorded events say about one pod up to time t, for the Pods and claims tab: when it
/// was created, how often the scheduler turned it away and its last words. Rich text (HTML).
QString replayedPodInWords(const PodReplay& replay, const ReplayState& state, const std::string& pod);

} // namespace drasim::ui
