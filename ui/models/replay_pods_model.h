// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "ui/models/pod_replay.h"
#include "ui/models/two_level_model.h"

namespace drasim::ui {

/// The pods of a simulated run at one moment, from its replay: those running (with their node and
/// the claims holding devices) and those pending (with the scheduler's last message). A running
/// preemption victim reads "Preempted", with who preempted it as its message. Same columns
/// and roles as PodsModel, so the Pods and claims tab shows either. The members of a PodGroup
/// placed as a unit (placedAsUnit: a gang, or a group kept in one topology domain) are the
/// children of one row for their group (its state, its policy and members bound of total, its
/// placement domain in the Node column); other pods are rows of the top level. Pods
/// that finished or have not arrived yet are not listed. Resets on setState().
class ReplayPodsModel : public TwoLevelModel
{
    Q_OBJECT
public:
    explicit ReplayPodsModel(QObject* parent = nullptr);
    /// The pods of `state` (the replay's state at some time), sorted by namespace/name.
    void setState(const ReplayState& state);
    void clear();
    int pendingCount() const { return m_pending; }
    /// Rows that stand for a PodGroup.
    int groupCount() const { return m_groups; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString key; ///< namespace/name of the pod, or of the PodGroup
        QString node; ///< a group: its placement domain's value
        QStringList claims;
        QString message;
        bool pending = false;
        bool preempted = false; ///< running out its grace period as a preemption victim
        QString group; ///< the PodGroup of a member, or the group's own key
        // A group's row: its members are its children.
        bool isGroup = false;
        QString status;
        bool settled = false; ///< every member bound, none preempted
        QString domain; ///< "key=value"
        int minCount = 0;
        int bound = 0;
        QString firstPending; ///< the first pending member, whose explanation carries the group's
        std::vector<Row> members;
    };
    const Row* rowAt(const QModelIndex& index) const;
    QVariant groupData(const Row& row, int column, int role) const;
    static Row podRow(
        const ReplayState& state, const std::string& pod, const std::map<std::string, QStringList>& claims);

    std::vector<Row> m_rows;
    int m_pending = 0;
    int m_groups = 0;
};

/// What an empty table of a run's pods at the state's time means: "8,152 pods succeeded; none
/// running or pending at d151 00:00:00", or that no pod has arrived yet. Empty while pods run or
/// wait.
QString emptyRunText(const ReplayState& state);

/// What the recorded events say about one pod up to time t, for the Pods and claims tab: when it
/// was created, how often the scheduler turned it away and its last words. Rich text (HTML).
QString replayedPodInWords(const PodReplay& replay, const ReplayState& state, const std::string& pod);

} // namespace drasim::ui
