// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace drasim::ui {

class ClusterGridView;

/// The controls above the Topology grid: which nodes it shows (pool, device model, condition),
/// their order (by name or by use), their grouping (pool, rack, model) and tiles or a heat map,
/// with how many of the cluster's nodes are shown. Choices that cannot narrow anything (one
/// pool, no racks) are not offered.
class NodeFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit NodeFilterBar(ClusterGridView* grid, QWidget* parent = nullptr);

    QComboBox* poolBox() const { return m_pool; }
    QComboBox* modelBox() const { return m_model; }
    QComboBox* stateBox() const { return m_state; }
    QComboBox* sortBox() const { return m_sort; }
    QComboBox* groupBox() const { return m_group; }
    QComboBox* modeBox() const { return m_mode; }
    /// "37 of 1,213 nodes".
    QString countLabel() const;

private:
    /// A new cluster: its pools, models and racks to choose from.
    void refill();
    void apply();
    void showCount();

    ClusterGridView* m_grid;
    QComboBox* m_pool = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_state = nullptr;
    QComboBox* m_sort = nullptr;
    QComboBox* m_group = nullptr;
    QComboBox* m_mode = nullptr;
    QLabel* m_count = nullptr;
};

} // namespace drasim::ui
