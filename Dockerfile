# The service image: one Python environment for the API, the migrations and the tool servers.
FROM python:3.11-slim
WORKDIR /srv/assetops
ENV PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY assetops ./assetops
COPY app ./app
COPY graph ./graph
COPY specialists ./specialists
COPY artifacts ./artifacts
COPY tools ./tools
COPY fleet ./fleet
COPY timeseries ./timeseries
COPY migrations ./migrations
COPY alembic.ini ./
# CPU wheel of torch first, so the resolver does not pull the CUDA build.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 && pip install .
EXPOSE 8000
CMD ["assetops", "serve", "--host", "0.0.0.0", "--port", "8000"]
