package dev.platform.scheduler.cluster;

import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * The agent gateway's command service, mocked for {@link dev.platform.scheduler.testsupport.ControllerSliceTest}:
 * it is package-private, so the shared slice names it here, where it is visible, rather than as a field.
 */
@MockitoBean(types = AgentCommandService.class)
public interface AgentGatewayPorts {
}
