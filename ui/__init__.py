"""The Streamlit side shared by the pages: sidebar panels, loading inputs, state keys, wording."""
