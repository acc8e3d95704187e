// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/frontier_chart_view.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include "core/sim/sim_time.h"
#include "ui/charts/time_axis.h"
#include "ui/models/plan_models.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

namespace {

constexpr double kThousand = 1000.0;

/// 1, 2 or 5 times a power of ten, at least `raw`.
double niceStep(double raw)
{
    if (!(raw > 0))
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double f : { 1.0, 2.0, 5.0 })
        if (f * power >= raw)
            return f * power;
    return 10 * power;
}

} // namespace

FrontierChartView::FrontierChartView(PlanMixesModel* model, QWidget* parent)
    : ChartView(parent)
    , m_model(model)
{
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_x = new QValueAxis(chart);
    m_x->setTitleText(tr("cost (thousand USD)"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    // Waits (drawn in minutes) get a time axis, shares a percentage one; rebuild() puts the one
    // the study's main level needs on the chart.
    m_percentY = new QValueAxis(this);
    m_waitY = new TimeAxis(this);
    m_waitY->setUnit(sim::kMinute);
    chart->addAxis(m_x, Qt::AlignBottom);
    m_y = m_waitY;
    chart->addAxis(m_y, Qt::AlignLeft);
    m_waitY->follow(chart);
    connect(chart, &QChart::plotAreaChanged, this, &FrontierChartView::fitYTitle);

    m_missed = new QScatterSeries(this);
    m_missed->setName(tr("missed a level (ringed: on the frontier)"));
    m_met = new QScatterSeries(this);
    m_met->setName(tr("meets every level"));
    m_frontier = new QLineSeries(this);
    m_frontier->setName(tr("frontier"));
    m_frontierMissed = new QScatterSeries(this);
    m_frontierMissed->setName(tr("frontier, misses a level"));
    m_recommended = new QScatterSeries(this);
    m_recommended->setName(tr("recommended"));
    m_clipped = new QScatterSeries(this);
    m_clipped->setName(tr("beyond the top (hover)"));
    m_level = new QLineSeries(this);
    m_level->setName(tr("service level"));
    for (QXYSeries* s :
        { static_cast<QXYSeries*>(m_level), static_cast<QXYSeries*>(m_missed), static_cast<QXYSeries*>(m_met),
            static_cast<QXYSeries*>(m_frontier), static_cast<QXYSeries*>(m_frontierMissed),
            static_cast<QXYSeries*>(m_recommended), static_cast<QXYSeries*>(m_clipped) }) {
        chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    // The ring explains itself in the "missed a level" entry: a legend of its own would not fit.
    for (QLegendMarker* marker : chart->legend()->markers(m_frontierMissed))
        marker->setVisible(false);
    setChart(chart);
    followPalette();
    styleSeries();
    setMinimumHeight(260);
    connect(model, &QAbstractItemModel::modelReset, this, &FrontierChartView::rebuild);
    rebuild();
}

int FrontierChartView::metCount() const
{
    return m_met->count();
}
int FrontierChartView::missedCount() const
{
    return m_missed->count();
}
int FrontierChartView::frontierCount() const
{
    return m_frontier->count();
}
int FrontierChartView::frontierMissedCount() const
{
    return m_frontierMissed->count();
}
int FrontierChartView::recommendedCount() const
{
    return m_recommended->count();
}
int FrontierChartView::clippedCount() const
{
    return m_clipped->count();
}
double FrontierChartView::levelLine() const
{
    return m_level->count() > 0 ? m_level->at(0).y() : -1;
}
QString FrontierChartView::chartTitle() const
{
    return chart()->title();
}
QString FrontierChartView::xTitle() const
{
    return m_x->titleText();
}
QString FrontierChartView::yTitle() const
{
    return m_y->titleText();
}
QStringList FrontierChartView::yTimeLabels() const
{
    return m_y == m_waitY ? m_waitY->tickLabels() : QStringList();
}
QString FrontierChartView::xLabelFormat() const
{
    return m_x->labelFormat();
}

void FrontierChartView::themeChanged()
{
    styleSeries();
}

void FrontierChartView::styleSeries()
{
    // Missed mixes recede (the window text colour, faint); the theme colours the rest.
    QColor faint = palette().color(QPalette::WindowText);
    faint.setAlphaF(0.35);
    m_missed->setColor(faint);
    m_missed->setBorderColor(Qt::transparent);
    m_missed->setMarkerSize(8);
    m_met->setMarkerSize(9);
    m_recommended->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_recommended->setMarkerSize(15);
    m_recommended->setColor(palette().color(QPalette::Highlight));
    m_recommended->setBorderColor(palette().color(QPalette::WindowText));
    QPen line = m_frontier->pen();
    line.setWidthF(2.0);
    m_frontier->setPen(line);
    // A ring around the grey marker: on the frontier, yet missing a level.
    m_frontierMissed->setMarkerSize(14);
    QColor wash = toneColor(Tone::Bad, palette());
    wash.setAlphaF(0.25); // the grey marker under it stays visible
    m_frontierMissed->setColor(wash);
    m_frontierMissed->setBorderColor(toneColor(Tone::Bad, palette()));
    QPen ring = m_frontierMissed->pen();
    ring.setColor(toneColor(Tone::Bad, palette()));
    ring.setWidthF(2.0);
    m_frontierMissed->setPen(ring);
    m_clipped->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_clipped->setMarkerSize(11);
    m_clipped->setColor(Qt::transparent);
    m_clipped->setBorderColor(palette().color(QPalette::WindowText));
    m_level->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
}

void FrontierChartView::useValueAxis(QValueAxis* y)
{
    if (m_y == y)
        return;
    chart()->removeAxis(m_y);
    m_y->setParent(this); // the chart lets go of an axis it no longer shows
    m_y = y;
    chart()->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart()->series())
        s->attachAxis(m_y);
    if (m_y == m_waitY)
        m_waitY->setUnit(sim::kMinute); // labels again for its new place
}

void FrontierChartView::rebuild()
{
    // Runs stopped early report waits of days; plotted as they are they would flatten every mix
    // worth looking at onto the axis. The window is set by the bound and the mixes meeting it;
    // anything beyond sits on its top edge (hover gives the real value).
    const auto* result = m_model->result();
    const LevelAxis axis
        = result && !result->levels.empty() ? levelAxis(result->levels.front()) : LevelAxis {};
    double top = axis.percent ? 100.0 : std::max(1.0, 2.0 * axis.limit);
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->index(row, 0).data(PlanMixesModel::FeasibleRole).toBool())
            top = std::max(top, 1.2 * m_model->index(row, 0).data(PlanMixesModel::MainValueRole).toDouble());
    m_top = top;
    QList<QPointF> met, missed, recommended, clipped, frontierMissed;
    QList<std::pair<double, double>> frontier;
    m_metRows.clear();
    m_missedRows.clear();
    m_recommendedRows.clear();
    m_clippedRows.clear();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex i = m_model->index(row, 0);
        // A value beyond the window, or none at all (a run stopped once the level was surely
        // missed), is drawn on the top edge and marked there: it is not read as a value.
        const double value = i.data(PlanMixesModel::MainValueRole).toDouble();
        const bool known = i.data(PlanMixesModel::MainKnownRole).toBool();
        const QPointF p(
            i.data(PlanMixesModel::CostRole).toDouble() / kThousand, known ? std::min(top, value) : top);
        if (!known || value > top) {
            clipped << p;
            m_clippedRows << row;
        }
        if (i.data(PlanMixesModel::FeasibleRole).toBool()) {
            met << p;
            m_metRows << row;
        } else {
            missed << p;
            m_missedRows << row;
        }
        if (i.data(PlanMixesModel::FrontierRole).toBool()) {
            frontier << std::make_pair(p.x(), p.y());
            if (!i.data(PlanMixesModel::FeasibleRole).toBool())
                frontierMissed << p;
        }
        if (i.data(PlanMixesModel::RecommendedRole).toBool()) {
            recommended << p;
            m_recommendedRows << row;
        }
    }
    std::sort(frontier.begin(), frontier.end());
    QList<QPointF> line;
    for (const auto& [x, y] : frontier)
        line << QPointF(x, y);
    m_met->replace(met);
    m_missed->replace(missed);
    m_frontier->replace(line);
    m_frontierMissed->replace(frontierMissed);
    m_recommended->replace(recommended);
    m_clipped->replace(clipped);
    m_limit = result && !result->levels.empty() ? axis.limit : -1;
    // A study that failed or was cancelled evaluated nothing: say so rather than show bare axes.
    chart()->setTitle(m_model->rowCount() > 0 ? tr("Cost against the main service level (worst seed)")
                                              : tr("Nothing to show: the study evaluated no mix"));
    useValueAxis(axis.percent ? m_percentY : static_cast<QValueAxis*>(m_waitY));
    // A time axis' labels carry their units ("30m", "1h"); a percentage says it in the title.
    m_yTitle = axis.percent ? axis.title : axis.name;
    fitYTitle();
    m_percentY->setLabelFormat(QStringLiteral("%.0f%%"));
    resetZoom();
}

void FrontierChartView::fitYTitle()
{
    const qreal room = chart()->plotArea().height();
    if (room <= 0) { // not laid out yet: the plot area's first change fits it
        m_y->setTitleText(m_yTitle);
        return;
    }
    m_y->setTitleText(QFontMetrics(m_y->titleFont()).elidedText(m_yTitle, Qt::ElideMiddle, int(room)));
}

void FrontierChartView::fitAxes()
{
    double maxX = 1;
    for (const QXYSeries* s : { static_cast<QXYSeries*>(m_met), static_cast<QXYSeries*>(m_missed) })
        for (const QPointF& p : s->points())
            maxX = std::max(maxX, p.x());
    m_x->setRange(0, maxX * 1.05);
    m_x->applyNiceNumbers();
    // Whole thousands read well from 10 up; below, whole numbers would repeat ("0 1 1 2").
    m_x->setLabelFormat(m_x->max() >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
    // The level across the whole width, so every mix reads against it.
    if (m_limit >= 0)
        m_level->replace({ QPointF(m_x->min(), m_limit), QPointF(m_x->max(), m_limit) });
    else
        m_level->clear();
    // A little below zero so mixes that meet the level perfectly are not hidden by the axis; ticks
    // stay on round values from zero.
    m_y->setRange(-0.04 * m_top, m_top * 1.04);
    m_percentY->setTickType(QValueAxis::TicksDynamic);
    m_percentY->setTickAnchor(0);
    m_percentY->setTickInterval(niceStep(m_top / 4));
}

QString FrontierChartView::pointText(int row) const
{
    const auto* result = m_model->result();
    if (!result || row < 0 || row >= m_model->rowCount())
        return {};
    auto cell = [this, row](int column) { return m_model->index(row, column).data().toString(); };
    return tr("%1: %2, %3 %4")
        .arg(cell(PlanMixesModel::MixColumn), cell(PlanMixesModel::CostColumn),
            m_model->headerData(PlanMixesModel::MainColumn, Qt::Horizontal).toString(),
            cell(PlanMixesModel::MainColumn));
}

QString FrontierChartView::hoverText(const QPointF& value, const QPointF& position) const
{
    Q_UNUSED(value);
    constexpr double kReachPixels = 10;
    int bestRow = -1;
    double bestDistance = kReachPixels;
    auto consider = [&](QScatterSeries* series, const QList<int>& rows) {
        const QList<QPointF> points = series->points();
        for (int i = 0; i < points.size() && i < rows.size(); ++i) {
            const QPointF at = chart()->mapToPosition(points[i], series);
            const double d = std::hypot(at.x() - position.x(), at.y() - position.y());
            if (d <= bestDistance) {
                bestRow = rows[i];
                bestDistance = d;
            }
        }
    };
    // The recommendation last: drawn on top of its own "meets every level" marker, it wins ties.
    consider(m_missed, m_missedRows);
    consider(m_met, m_metRows);
    consider(m_recommended, m_recommendedRows);
    if (bestRow < 0)
        return {};
    // A mark on the top edge is not its value: say so before giving the real one.
    QString text = m_clippedRows.contains(bestRow) ? tr("beyond the chart's top: %1").arg(pointText(bestRow))
                                                   : pointText(bestRow);
    // Its place on the frontier, and for a mix that misses a level each level it misses.
    const QString frontier = m_model->index(bestRow, PlanMixesModel::FrontierColumn).data().toString();
    if (!frontier.isEmpty())
        text += QLatin1Char('\n') + tr("frontier: %1").arg(frontier);
    if (!m_model->index(bestRow, 0).data(PlanMixesModel::FeasibleRole).toBool())
        text += QLatin1Char('\n') + m_model->index(bestRow, PlanMixesModel::VerdictColumn).data().toString();
    return text;
}

QByteArray FrontierChartView::csvText() const
{
    const auto* result = m_model->result();
    if (!result || m_model->rowCount() == 0)
        return {};
    const LevelAxis axis = !result->levels.empty() ? levelAxis(result->levels.front()) : LevelAxis {};
    QStringList header { QStringLiteral("mix"), QStringLiteral("cost (USD)"), csvField(axis.title),
        QStringLiteral("meets every level"), QStringLiteral("frontier"), QStringLiteral("recommended") };
    QByteArray text = header.join(QLatin1Char(',')).toUtf8() + '\n';
    auto yesNo = [](const QModelIndex& i, int role) {
        return i.data(role).toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    };
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex i = m_model->index(row, 0);
        const QStringList fields { csvField(m_model->index(row, PlanMixesModel::MixColumn).data().toString()),
            QString::number(i.data(PlanMixesModel::CostRole).toDouble(), 'f', 0),
            QString::number(i.data(PlanMixesModel::MainValueRole).toDouble(), 'g', 10),
            yesNo(i, PlanMixesModel::FeasibleRole), yesNo(i, PlanMixesModel::FrontierRole),
            yesNo(i, PlanMixesModel::RecommendedRole) };
        text += fields.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return text;
}

} // namespace drasim::ui
