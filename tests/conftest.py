import os

# Nothing in the test suite may reach a hub or the internet.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("INSPECT_LOG_DIR", os.path.join(os.path.dirname(__file__), "..", ".kopa", "test-logs"))
