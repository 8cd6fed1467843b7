//! What a tool result holds for the model ([`Content`]: text, images, audio, embedded resources
//! and resource links, as MCP defines them), and how a provider crate reports the content its
//! tool-result message could not carry as it was ([`ResultMessage`], [`ContentNote`]).
//!
//! Owns only these types and the text forms every provider shares (a resource or a link written
//! as text, the note that stands where content could not go). The provider messages themselves
//! live in each provider crate's `calls.rs`.

use serde::{Deserialize, Serialize};

use super::ToolResult;

/// One piece of a tool result's content.
///
/// The kinds are MCP's content blocks: what an MCP tool can return is held here one to one, and
/// each provider crate maps every kind to its tool-result message or reports the ones it cannot
/// carry (see [`ResultMessage`]).
///
/// ```
/// use tooldef::{Content, ResourceContents, ResourceLink};
///
/// let parts = [
///     Content::text("Forecast attached."),
///     Content::image("iVBORw0KGgo=", "image/png"),
///     Content::audio("UklGRg==", "audio/wav"),
///     Content::resource(ResourceContents::text("file:///notes.md", "# Notes").mime_type("text/markdown")),
///     Content::resource(ResourceContents::blob("file:///report.pdf", "JVBERi0=").mime_type("application/pdf")),
///     Content::ResourceLink(ResourceLink::new("file:///big.csv", "big.csv").mime_type("text/csv")),
/// ];
/// let json = serde_json::to_value(&parts[3]).unwrap();
/// assert_eq!(
///     json,
///     serde_json::json!({
///         "type": "resource",
///         "resource": {"uri": "file:///notes.md", "mime_type": "text/markdown", "text": "# Notes"}
///     })
/// );
/// let back: Content = serde_json::from_value(json).unwrap();
/// assert_eq!(back, parts[3]);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text for the model.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// The MIME type, e.g. `image/png`.
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// The MIME type, e.g. `audio/wav`.
        mime_type: String,
    },
    /// A resource embedded in the result: its text or its bytes, with its URI.
    Resource {
        /// The resource's contents.
        resource: ResourceContents,
    },
    /// A link to a resource the client can read (MCP `resources/read`); its contents are not
    /// in the result.
    ResourceLink(ResourceLink),
}

impl Content {
    /// Text content.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text { text: text.into() }
    }

    /// An image: base64 `data` of the MIME type `mime_type`.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image { data: data.into(), mime_type: mime_type.into() }
    }

    /// Audio: base64 `data` of the MIME type `mime_type`.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio { data: data.into(), mime_type: mime_type.into() }
    }

    /// An embedded resource.
    pub fn resource(resource: ResourceContents) -> Self {
        Content::Resource { resource }
    }

    /// Which kind of content this is.
    pub fn kind(&self) -> ContentKind {
        match self {
            Content::Text { .. } => ContentKind::Text,
            Content::Image { .. } => ContentKind::Image,
            Content::Audio { .. } => ContentKind::Audio,
            Content::Resource { resource: ResourceContents::Text { .. } } => {
                ContentKind::TextResource
            }
            Content::Resource { resource: ResourceContents::Blob { .. } } => {
                ContentKind::BlobResource
            }
            Content::ResourceLink(_) => ContentKind::ResourceLink,
        }
    }

    /// The MIME type the content declares, if any (text has none).
    pub fn mime_type(&self) -> Option<&str> {
        match self {
            Content::Text { .. } => None,
            Content::Image { mime_type, .. } | Content::Audio { mime_type, .. } => Some(mime_type),
            Content::Resource { resource } => resource.mime_type_value(),
            Content::ResourceLink(link) => link.mime_type.as_deref(),
        }
    }
}

/// The contents of an embedded resource: text or base64 bytes, with the resource's URI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// A resource whose contents are text.
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its text.
        text: String,
    },
    /// A resource whose contents are bytes.
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its bytes, base64-encoded.
        blob: String,
    },
}

impl ResourceContents {
    /// A text resource, without a MIME type.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        ResourceContents::Text { uri: uri.into(), mime_type: None, text: text.into() }
    }

    /// A binary resource (`blob` is base64), without a MIME type.
    pub fn blob(uri: impl Into<String>, blob: impl Into<String>) -> Self {
        ResourceContents::Blob { uri: uri.into(), mime_type: None, blob: blob.into() }
    }

    /// The same resource with the MIME type `mime_type`.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        match &mut self {
            ResourceContents::Text { mime_type: m, .. }
            | ResourceContents::Blob { mime_type: m, .. } => {
                *m = Some(mime_type.into());
            }
        }
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }

    /// A text resource written as text, for a provider that has no document block:
    /// `resource URI (MIME):` on the first line, the text after it; `None` for a binary
    /// resource, which has no text.
    ///
    /// ```
    /// use tooldef::ResourceContents;
    ///
    /// let r = ResourceContents::text("file:///notes.md", "# Notes").mime_type("text/markdown");
    /// assert_eq!(r.to_text().unwrap(), "resource file:///notes.md (text/markdown):\n# Notes");
    /// ```
    pub fn to_text(&self) -> Option<String> {
        let ResourceContents::Text { uri, mime_type, text } = self else { return None };
        Some(match mime_type {
            Some(mime) => format!("resource {uri} ({mime}):\n{text}"),
            None => format!("resource {uri}:\n{text}"),
        })
    }

    /// The resource's MIME type, when known.
    pub fn mime_type_value(&self) -> Option<&str> {
        match self {
            ResourceContents::Text { mime_type, .. } | ResourceContents::Blob { mime_type, .. } => {
                mime_type.as_deref()
            }
        }
    }
}

/// A link to a resource, as MCP's `resource_link` content sends it: a URI and a name, with what
/// else the server said about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A title for people, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl ResourceLink {
    /// A link to `uri` named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }

    /// With a title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// With a description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// With a MIME type.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// With a size in bytes.
    #[must_use]
    pub fn size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    /// The link written as text, for a provider that has no place for links: `resource link:
    /// NAME <URI>`, then the MIME type, size, title and description where known.
    ///
    /// ```
    /// use tooldef::ResourceLink;
    ///
    /// let link = ResourceLink::new("file:///big.csv", "big.csv").mime_type("text/csv").size(2048);
    /// assert_eq!(link.to_text(), "resource link: big.csv <file:///big.csv> (text/csv, 2048 bytes)");
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = format!("resource link: {} <{}>", self.name, self.uri);
        let facts: Vec<String> = [self.mime_type.clone(), self.size.map(|s| format!("{s} bytes"))]
            .into_iter()
            .flatten()
            .collect();
        if !facts.is_empty() {
            out.push_str(&format!(" ({})", facts.join(", ")));
        }
        if let Some(title) = &self.title {
            out.push_str(&format!("\ntitle: {title}"));
        }
        if let Some(description) = &self.description {
            out.push_str(&format!("\n{description}"));
        }
        out
    }
}

/// The kinds of [`Content`], for reports and tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContentKind {
    /// [`Content::Text`].
    Text,
    /// [`Content::Image`].
    Image,
    /// [`Content::Audio`].
    Audio,
    /// [`Content::Resource`] holding text.
    TextResource,
    /// [`Content::Resource`] holding bytes.
    BlobResource,
    /// [`Content::ResourceLink`].
    ResourceLink,
}

impl ContentKind {
    /// Every kind, in declaration order.
    pub const ALL: [ContentKind; 6] = [
        ContentKind::Text,
        ContentKind::Image,
        ContentKind::Audio,
        ContentKind::TextResource,
        ContentKind::BlobResource,
        ContentKind::ResourceLink,
    ];

    /// The kind's name in messages: `text`, `image`, `audio`, `text resource`,
    /// `binary resource`, `resource link`.
    pub const fn name(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::TextResource => "text resource",
            ContentKind::BlobResource => "binary resource",
            ContentKind::ResourceLink => "resource link",
        }
    }
}

impl std::fmt::Display for ContentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a provider's tool-result message did with one piece of content it could not carry as
/// the result held it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Carried {
    /// Carried in another form (a text resource sent as text, a link written out, a URI left
    /// out); [`ContentNote::reason`] says how.
    Changed,
    /// Not carried: the provider's message has no place for it. The message holds a short note
    /// in its place, so the model knows something is missing, and a `tracing` warning is logged.
    NotCarried,
}

/// One piece of a result's content that a provider's message could not carry as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContentNote {
    /// The id of the call the result answers.
    pub call_id: String,
    /// The tool's name.
    pub tool: String,
    /// The piece's index in [`ToolResult::content`].
    pub index: usize,
    /// Its kind.
    pub kind: ContentKind,
    /// Changed or not carried.
    pub carried: Carried,
    /// How it was changed, or why the provider cannot carry it.
    pub reason: String,
}

impl ContentNote {
    /// The note about `result.content[index]`. A note that the piece is
    /// [not carried](Carried::NotCarried) is also logged as a `tracing` warning; a change is
    /// logged at debug level.
    pub fn new(
        result: &ToolResult,
        index: usize,
        carried: Carried,
        reason: impl Into<String>,
    ) -> Self {
        let kind = result.content.get(index).map_or(ContentKind::Text, Content::kind);
        let reason = reason.into();
        match carried {
            Carried::NotCarried => tracing::warn!(
                tool = %result.name,
                call_id = %result.call_id,
                index,
                kind = kind.name(),
                reason = %reason,
                "tool result content not carried by the provider's message"
            ),
            Carried::Changed => tracing::debug!(
                tool = %result.name,
                call_id = %result.call_id,
                index,
                kind = kind.name(),
                reason = %reason,
                "tool result content carried with a change"
            ),
        }
        ContentNote {
            call_id: result.call_id.clone(),
            tool: result.name.clone(),
            index,
            kind,
            carried,
            reason,
        }
    }

    /// The text a provider's message holds in place of content it could not carry:
    /// `[audio of type audio/wav not sent: REASON]`.
    pub fn placeholder(&self, content: &Content) -> String {
        match content.mime_type() {
            Some(mime) => format!("[{} of type {mime} not sent: {}]", self.kind, self.reason),
            None => format!("[{} not sent: {}]", self.kind, self.reason),
        }
    }
}

impl std::fmt::Display for ContentNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.carried {
            Carried::Changed => "carried with a change",
            Carried::NotCarried => "not carried",
        };
        write!(
            f,
            "{} (call {}): content {} ({}) {what}: {}",
            self.tool, self.call_id, self.index, self.kind, self.reason
        )
    }
}

/// A provider's tool-result message, with a note for each piece of content it could not carry
/// as the result held it (empty when everything went through as it was).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ResultMessage<T = serde_json::Value> {
    /// The message (or block, or part) to send.
    pub message: T,
    /// What was changed or not carried, in content order.
    pub notes: Vec<ContentNote>,
}

impl<T> ResultMessage<T> {
    /// A message with its notes.
    pub fn new(message: T, notes: Vec<ContentNote>) -> Self {
        ResultMessage { message, notes }
    }

    /// The message, notes dropped (they were logged when made).
    pub fn into_message(self) -> T {
        self.message
    }

    /// Whether every piece of content was carried, changed or not.
    pub fn carried_all(&self) -> bool {
        self.notes.iter().all(|n| n.carried != Carried::NotCarried)
    }

    /// The notes of content that was not carried.
    pub fn not_carried(&self) -> impl Iterator<Item = &ContentNote> + '_ {
        self.notes.iter().filter(|n| n.carried == Carried::NotCarried)
    }

    /// The same notes on another message (a provider's typed form of the same message).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ResultMessage<U> {
        ResultMessage { message: f(self.message), notes: self.notes }
    }
}
