"""The built-in offline designer: a grammar of panel parts and a driver that uses it.

With no model configured, a shift still builds a real, new machine: `choose`
picks the design least like the shelf, `render` writes its four files,
`measure` looks at the probe's screenshots, and `driver.Designer` strings them
together as a Model that acts only through the same tools an LLM gets. Nothing
in this package may reach the network or call the tools directly.
"""

VERSION = "4"
