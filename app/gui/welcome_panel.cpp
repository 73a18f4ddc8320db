#include "app/gui/welcome_panel.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/gui/bundled_sample.h"
#include "app/gui/recent_files.h"
#include "widgets/common/view_colors.h"

namespace contend::gui {

WelcomePanel::WelcomePanel(QWidget* parent)
    : QWidget(parent),
      m_recent(new QListWidget(this)),
      m_recentTitle(new QLabel(tr("<b>Recent</b>"), this)),
      m_sample(new QPushButton(tr("Open the Bundled Sample"), this)) {
    setObjectName(QStringLiteral("welcomePanel"));
    auto* title = new QLabel(tr("<h1>Contend</h1>"), this);
    auto* what = new QLabel(tr("Finds the operators that were slowed <i>by contention</i> in a profiling trace: "
                               "which ones, by how much, what they were starved of (bandwidth, compute, cache, "
                               "sync, locks) and what a fix would save end to end."),
                            this);
    what->setWordWrap(true);
    auto* formats = new QLabel(tr("Opens PyTorch/Kineto and Chrome JSON traces (plain or .gz), Nsight Systems "
                                  "SQLite exports, Ascend profiler folders and databases, and Contend's own reports. "
                                  "Drop a file anywhere on the window."),
                               this);
    formats->setWordWrap(true);
    formats->setStyleSheet(widgets::themedHtml(QStringLiteral("color: #666")));

    auto* open = new QPushButton(tr("Open Trace…"), this);
    open->setToolTip(tr("Ctrl+O"));
    auto* folder = new QPushButton(tr("Open Ascend Folder…"), this);
    folder->setToolTip(tr("Ctrl+Shift+O"));
    auto* cluster = new QPushButton(tr("Open Cluster…"), this);
    cluster->setToolTip(tr("A folder of per-rank traces, or a cluster report from contend-cli merge"));
    auto* guide = new QPushButton(tr("How Contend Decides"), this);
    guide->setToolTip(tr("The method, section by section (F1)"));
    m_sample->setToolTip(tr("A small PyTorch trace with contention, installed with Contend"));
    for (QPushButton* b : {open, folder, cluster, m_sample, guide}) b->setMinimumWidth(200);
    connect(open, &QPushButton::clicked, this, &WelcomePanel::openFileRequested);
    connect(folder, &QPushButton::clicked, this, &WelcomePanel::openFolderRequested);
    connect(cluster, &QPushButton::clicked, this, &WelcomePanel::openClusterRequested);
    connect(guide, &QPushButton::clicked, this, &WelcomePanel::guideRequested);
    connect(m_sample, &QPushButton::clicked, this, [this] {
        if (!m_samplePath.isEmpty()) emit openPathRequested(m_samplePath);
    });

    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setMinimumWidth(360);
    m_recent->setMaximumHeight(260);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit openPathRequested(item->data(Qt::UserRole).toString()); });
    connect(m_recent, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit openPathRequested(item->data(Qt::UserRole).toString()); });

    auto* buttons = new QVBoxLayout;
    buttons->addWidget(new QLabel(tr("<b>Start</b>"), this));
    for (QPushButton* b : {open, folder, cluster, m_sample, guide}) buttons->addWidget(b);
    buttons->addStretch(1);
    auto* recent = new QVBoxLayout;
    recent->addWidget(m_recentTitle);
    recent->addWidget(m_recent);
    recent->addStretch(1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(buttons);
    columns->addSpacing(32);
    columns->addLayout(recent, 1);

    auto* page = new QWidget(this);
    page->setMaximumWidth(820);
    auto* box = new QVBoxLayout(page);
    box->addWidget(title);
    box->addWidget(what);
    box->addWidget(formats);
    box->addSpacing(16);
    box->addLayout(columns);
    // The page scrolls when the window is short: it must not raise the main window's minimum
    // height (the main window fits 1280x800, tests/gui/test_fit.cpp).
    auto* body = new QWidget(this);
    auto* outer = new QGridLayout(body);
    outer->addWidget(page, 1, 1);
    outer->setRowStretch(0, 1);
    outer->setRowStretch(2, 3);
    outer->setColumnStretch(0, 1);
    outer->setColumnStretch(2, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* whole = new QVBoxLayout(this);
    whole->setContentsMargins(0, 0, 0, 0);
    whole->addWidget(scroll);
    refresh();
}

void WelcomePanel::refresh() {
    m_recent->clear();
    for (const QString& f : RecentFiles::load()) {
        const QFileInfo info(f);
        auto* item = new QListWidgetItem(
            info.fileName() + QStringLiteral("  —  ") + QDir::toNativeSeparators(info.absolutePath()), m_recent);
        item->setData(Qt::UserRole, f);
        item->setToolTip(QDir::toNativeSeparators(f));
    }
    const bool any = m_recent->count() > 0;
    m_recentTitle->setText(any ? tr("<b>Recent</b>") : tr("<b>Recent</b> (none yet)"));
    m_recent->setVisible(any);
    m_samplePath = bundledSample();
    m_sample->setVisible(!m_samplePath.isEmpty());
}

}  // namespace contend::gui
