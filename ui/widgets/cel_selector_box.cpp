// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cel_selector_box.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/models/selector_match_model.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

CelSelectorBox::CelSelectorBox(QWidget* parent)
    : QWidget(parent)
{
    m_model = new SelectorMatchModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(SelectorMatchModel::MatchRole);
    m_proxy->setFilterKeyColumn(SelectorMatchModel::ResultColumn);

    auto* title = new QLabel(tr("<b>CEL selector</b> — which devices of the cluster does it match?"), this);
    m_input = new QLineEdit(this);
    m_input->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_input->setPlaceholderText(
        QStringLiteral("device.attributes[\"gpu.nvidia.com\"].productName.contains(\"H100\")"));
    m_input->setClearButtonEnabled(true);
    m_show = new QComboBox(this);
    m_show->addItem(tr("all devices"), QString());
    m_show->addItem(tr("matching"), QString::number(int(session::DeviceMatch::Match)));
    m_show->addItem(tr("not matching"), QString::number(int(session::DeviceMatch::NoMatch)));
    m_show->addItem(tr("errors"), QString::number(int(session::DeviceMatch::Error)));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);

    auto* row = new QHBoxLayout();
    row->addWidget(m_input, 1);
    row->addWidget(m_show);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_input, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &CelSelectorBox::evaluate);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const session::SelectorPreview>>::finished, this,
        &CelSelectorBox::onEvaluated);
    connect(m_show, &QComboBox::currentIndexChanged, this, [this]() {
        const QString want = m_show->currentData().toString();
        m_proxy->setFilterRegularExpression(want.isEmpty() ? QString() : QStringLiteral("^%1$").arg(want));
    });
    m_summary->setText(tr("Type an expression; it is checked as the API server checks new selectors."));
}

CelSelectorBox::~CelSelectorBox()
{
    m_watcher.waitForFinished();
}

void CelSelectorBox::setObjects(std::shared_ptr<const api::ObjectSet> objects)
{
    m_objects = std::move(objects);
    m_input->setPlaceholderText(exampleFor(m_objects.get()));
    evaluate();
}

QString CelSelectorBox::exampleFor(const api::ObjectSet* objects)
{
    if (objects) {
        for (const auto& deviceClass : objects->deviceClasses)
            if (!deviceClass.selectors.empty())
                return QString::fromStdString(deviceClass.selectors.front().expression).simplified();
        if (!objects->resourceSlices.empty())
            return QStringLiteral("device.driver == \"%1\"")
                .arg(QString::fromStdString(objects->resourceSlices.front().driver));
    }
    return QStringLiteral("device.attributes[\"gpu.nvidia.com\"].productName.contains(\"H100\")");
}

QString CelSelectorBox::example() const
{
    return m_input->placeholderText();
}

void CelSelectorBox::setExpression(const QString& expression)
{
    m_input->setText(expression);
    m_input->setCursorPosition(0); // a long expression shows its start, not its last characters
    m_debounce->stop();
    evaluate();
}

QString CelSelectorBox::expression() const
{
    return m_input->text();
}

QString CelSelectorBox::summary() const
{
    return m_summary->text();
}

void CelSelectorBox::evaluate()
{
    if (m_input->text().trimmed().isEmpty() || !m_objects) {
        m_model->setPreview(nullptr);
        return;
    }
    if (m_watcher.isRunning()) {
        m_pending = true; // evaluated again when the current run ends
        return;
    }
    const std::string expression = m_input->text().toStdString();
    auto objects = m_objects;
    m_watcher.setFuture(m_pool.run([expression, objects]() {
        return std::make_shared<const session::SelectorPreview>(
            session::previewSelector(expression, *objects));
    }));
}

void CelSelectorBox::onEvaluated()
{
    if (m_pending) {
        m_pending = false;
        evaluate();
        return;
    }
    auto preview = m_watcher.result();
    m_model->setPreview(preview);
    if (!preview->compiled) {
        // The expression with a caret under the column the compiler names.
        const auto& e = preview->compileError;
        const QString line = m_input->text().split(QLatin1Char('\n')).value(e.line - 1);
        m_summary->setText(tr("<span style='color:%6'><b>Does not compile</b> (line %1, column %2): "
                              "%3</span><pre>%4\n%5^</pre>")
                               .arg(e.line)
                               .arg(e.column)
                               .arg(QString::fromStdString(e.message).toHtmlEscaped(), line.toHtmlEscaped(),
                                   QString(std::max(0, e.column - 1), QLatin1Char(' ')),
                                   toneColor(Tone::Bad, palette()).name()));
    } else {
        m_summary->setText(tr("<b>%1 of %2 devices match</b>; %3 do not (the selector is false), %4 could "
                              "not be evaluated (a pod asking for them stays pending).")
                               .arg(preview->matched)
                               .arg(preview->devices.size())
                               .arg(preview->unmatched)
                               .arg(preview->errors));
        m_view->resizeColumnsToContents();
    }
    Q_EMIT evaluated();
}

} // namespace drasim::ui
