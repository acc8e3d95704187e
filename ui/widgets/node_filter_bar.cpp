// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/node_filter_bar.h"

#include <algorithm>
#include <utility>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "ui/models/core_text.h"
#include "ui/widgets/cluster_grid_view.h"

namespace drasim::ui {

namespace {

QComboBox* makeBox(QWidget* parent, const QString& tip)
{
    auto* box = new QComboBox(parent);
    box->setToolTip(tip);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return box;
}

} // namespace

NodeFilterBar::NodeFilterBar(ClusterGridView* grid, QWidget* parent)
    : QWidget(parent)
    , m_grid(grid)
{
    using State = NodeTilesFilter::State;
    m_pool = makeBox(this, tr("Show the nodes of one node pool"));
    m_model = makeBox(this, tr("Show the nodes with devices of one model"));
    m_state = makeBox(this, tr("Show the nodes in one condition at this time"));
    const std::pair<QString, State> states[]
        = { { tr("any state"), State::Any }, { tr("up"), State::Up }, { tr("down"), State::Down },
              { tr("draining"), State::Draining }, { tr("tainted devices"), State::Tainted },
              { tr("idle"), State::Idle }, { tr("busy"), State::Busy }, { tr("full"), State::Full } };
    for (const auto& [text, state] : states)
        m_state->addItem(text, int(state));
    m_sort = makeBox(this, tr("Order of the nodes within a group"));
    m_sort->addItem(tr("by name"), int(NodeTilesFilter::SortBy::Name));
    m_sort->addItem(tr("by use"), int(NodeTilesFilter::SortBy::Use));
    m_group = makeBox(this, tr("Group the nodes under headings"));
    m_mode = makeBox(this, tr("Tiles name each node; a heat map shows thousands at once"));
    m_mode->addItem(tr("tiles"), int(ClusterGridView::Mode::Tiles));
    m_mode->addItem(tr("heat map"), int(ClusterGridView::Mode::HeatMap));
    m_count = new QLabel(this);

    auto* filters = new QHBoxLayout();
    filters->addWidget(new QLabel(tr("Show"), this));
    filters->addWidget(m_pool);
    filters->addWidget(m_model, 1);
    filters->addWidget(m_state);
    auto* order = new QHBoxLayout();
    order->addWidget(new QLabel(tr("Sort"), this));
    order->addWidget(m_sort);
    order->addWidget(m_group);
    order->addWidget(m_mode);
    order->addStretch(1);
    order->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(filters);
    layout->addLayout(order);

    for (QComboBox* box : { m_pool, m_model, m_state, m_sort, m_group, m_mode })
        connect(box, &QComboBox::currentIndexChanged, this, &NodeFilterBar::apply);
    connect(m_grid->tilesModel(), &QAbstractItemModel::modelReset, this, &NodeFilterBar::refill);
    connect(m_grid, &ClusterGridView::shownNodesChanged, this, &NodeFilterBar::showCount);
    refill();
}

void NodeFilterBar::refill()
{
    const NodeTilesModel* tiles = m_grid->tilesModel();
    // The choices made stay through a reopened or rerun scenario, as far as the new cluster has
    // what they name (a pool it lost goes back to all pools).
    const QVariant pool = m_pool->currentData();
    const QVariant model = m_model->currentData();
    const QVariant group = m_group->currentData();
    auto keep = [](QComboBox* box, const QVariant& chosen) {
        box->setCurrentIndex(std::max(0, box->findData(chosen)));
    };
    {
        const QSignalBlocker a(m_pool), b(m_model), c(m_group), d(m_mode);
        m_pool->clear();
        m_pool->addItem(tr("all pools"), QString());
        for (const QString& pool : tiles->pools())
            m_pool->addItem(pool, pool);
        m_pool->setVisible(tiles->pools().size() > 1);
        m_model->clear();
        m_model->addItem(tr("all device models"), QString());
        for (const QString& model : tiles->models())
            m_model->addItem(model, model);
        m_group->clear();
        m_group->addItem(tr("no groups"), int(NodeTilesFilter::GroupBy::None));
        if (tiles->pools().size() > 1)
            m_group->addItem(tr("by pool"), int(NodeTilesFilter::GroupBy::Pool));
        if (!tiles->racks().isEmpty())
            m_group->addItem(tr("by rack"), int(NodeTilesFilter::GroupBy::Rack));
        if (tiles->models().size() > 1)
            m_group->addItem(tr("by model"), int(NodeTilesFilter::GroupBy::Model));
        keep(m_pool, pool);
        keep(m_model, model);
        keep(m_group, group);
        m_mode->setCurrentIndex(m_mode->findData(int(m_grid->mode())));
    }
    apply();
}

void NodeFilterBar::apply()
{
    NodeTilesFilter* filter = m_grid->filter();
    filter->setPool(m_pool->currentData().toString());
    filter->setModel(m_model->currentData().toString());
    filter->setState(NodeTilesFilter::State(m_state->currentData().toInt()));
    filter->setSortBy(NodeTilesFilter::SortBy(m_sort->currentData().toInt()));
    filter->setGroupBy(NodeTilesFilter::GroupBy(m_group->currentData().toInt()));
    m_grid->setMode(ClusterGridView::Mode(m_mode->currentData().toInt()));
    showCount();
}

QString NodeFilterBar::countLabel() const
{
    const int all = m_grid->tilesModel()->rowCount();
    const int shown = m_grid->filter()->rowCount();
    return shown == all ? tr("%1 nodes").arg(countText(all))
                        : tr("%1 of %2 nodes").arg(countText(shown), countText(all));
}

void NodeFilterBar::showCount()
{
    m_count->setText(countLabel());
}

} // namespace drasim::ui
