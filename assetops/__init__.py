"""Core of the assetops service: settings, database layer, cache and profiling primitives.

Everything here sits at the bottom of the layer stack (see ARCHITECTURE.md): it imports no other
package of the project, and every other package may import it.
"""
