// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/help_browser.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

// The guide pages are compiled into the static ui library (docs.qrc); a static library's resources
// are registered only when asked, and Q_INIT_RESOURCE must be used outside any namespace.
static void registerGuidePages()
{
    Q_INIT_RESOURCE(docs);
}

namespace drasim::ui {

QString HelpBrowser::resourcePath(const QString& name)
{
    return QStringLiteral(":/drasim/docs/") + name;
}

HelpBrowser::HelpBrowser(QWidget* parent)
    : QDialog(parent)
{
    registerGuidePages();
    setWindowTitle(tr("drasim user guide"));
    setObjectName(QStringLiteral("helpBrowser"));
    m_browser = new QTextBrowser(this);
    // Links between guide pages are followed here; anything else opens in the desktop's browser.
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.isRelative() && url.path().endsWith(QLatin1String(".md")) && showPage(url.fileName()))
            return;
        QDesktopServices::openUrl(url);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(820, 720);
    showPage(QStringLiteral("user-guide.md"));
}

bool HelpBrowser::showPage(const QString& name)
{
    QFile file(resourcePath(name));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    m_browser->setMarkdown(QString::fromUtf8(file.readAll()));
    m_page = name;
    return true;
}

QString HelpBrowser::text() const
{
    return m_browser->toPlainText();
}

} // namespace drasim::ui
