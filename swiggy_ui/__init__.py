"""Streamlit components: pages call these and nothing else."""
