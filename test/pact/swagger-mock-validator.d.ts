// @pactflow/swagger-mock-validator ships no types: what the Pact tests call of it.
declare module "@pactflow/swagger-mock-validator" {
  export const SwaggerMockValidatorFactory: {
    create(auth?: string): { validate(options: { mockPathOrUrl: string; specPathOrUrl: string }): Promise<unknown> };
  };
}
