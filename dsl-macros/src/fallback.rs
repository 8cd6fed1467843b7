//! What is emitted when a macro call has errors: the user's item (minus the helper attributes
//! the compiler would reject) plus stub impls, so that one mistake yields its own error and no
//! cascade of "cannot find type" or "trait not implemented" noise.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{FnArg, Generics, Ident, Signature};

use crate::attr::{PARAM, TOOL};

/// Removes `#[param]` and doc attributes from parameters: neither is valid there for rustc.
pub(crate) fn strip_params(sig: &mut Signature) {
    for arg in &mut sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !a.path().is_ident(PARAM) && !a.path().is_ident("doc"));
        }
    }
}

/// Whether an attribute is `#[tool]` (or `#[tooldef::tool]`).
pub(crate) fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path().segments.last().is_some_and(|s| s.ident == TOOL)
}

/// A stub `Tool` impl for `ty`.
pub(crate) fn tool_stub(ty: &Ident, krate: &TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            use #krate::__private as __p;

            impl __p::Tool for #ty {
                const NAME: &'static str = "";
                type Args = ();
                type Output = ();

                fn descriptor() -> &'static __p::ToolDescriptor {
                    ::core::unimplemented!()
                }

                fn call(&self, _: ()) -> __p::BoxFuture<'_, __p::Result<(), __p::ToolError>> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}

/// A stub `ToolSet` impl for `ty`.
pub(crate) fn tool_set_stub(ty: &syn::Type, krate: &TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            use #krate::__private as __p;

            impl __p::ToolSet for #ty {
                fn descriptors() -> __p::Vec<&'static __p::ToolDescriptor> {
                    ::core::unimplemented!()
                }

                fn visit_tools<__V: __p::ToolVisitor>(_: &__p::Arc<Self>, _: &mut __V) {
                    ::core::unimplemented!()
                }
            }
        };
    }
}

/// A stub `ToolSchema` impl.
pub(crate) fn schema_stub(ident: &Ident, generics: &Generics, krate: &TokenStream) -> TokenStream {
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    quote! {
        const _: () = {
            use #krate::__private as __p;

            impl #impl_g __p::ToolSchema for #ident #ty_g #where_clause {
                fn schema(_: &mut __p::SchemaGen) -> __p::Schema {
                    ::core::unimplemented!()
                }
            }
        };
    }
}
